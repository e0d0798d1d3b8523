import { FORMATS, type Format } from "../model/schema.js";
import { call, SUBJECT, text } from "./expr.js";
import { at, type Keyword } from "./keyword.js";

/** The support function (runtime/support/validation.ts) that decides each format. */
export const FORMAT_CHECKS: Readonly<Record<Format, string>> = {
  byte: "isByte",
  uri: "isUri",
  "uri-template": "isUriTemplate",
  email: "isEmail",
  date: "isDate",
  "date-time": "isDateTime",
  time: "isTime",
  uuid: "isUuid",
  ipv4: "isIpv4",
  ipv6: "isIpv6",
  hostname: "isHostname",
};

/** `format`, an assertion for the formats the loader accepts. */
export const format: Keyword = {
  reads: {
    format(value, at, read) {
      // Tool schemas: an annotation (2020-12's default) unless the user asked for assertion.
      if (read.tool && typeof value === "string" && (!read.assertFormats || !FORMATS.has(value))) return { annotatedFormat: value };
      if (typeof value !== "string" || !FORMATS.has(value)) read.fail(at, `unsupported format ${JSON.stringify(value)} (supported: ${[...FORMATS].join(", ")})`);
      return { format: value as Format };
    },
  },
  about: "string",
  lower: (s) =>
    s.format === undefined
      ? []
      : [{ kind: "assert", keyword: "format", schemaPath: at(s, "format"), valid: call(FORMAT_CHECKS[s.format], SUBJECT), message: text(`must match format "${s.format}"`), then: [] }],
};
