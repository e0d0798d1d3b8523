import { isByte, isDate, isDateTime, isEmail, isHostname, isIpv4, isIpv6, isTime, isUri, isUriTemplate, isUuid } from "../support/validation.js";

/**
 * Every format a validator asserts on request, by name: the rules of the validators' support
 * module (runtime/support/validation.ts), shared by the protocol validators, `generate --tools`
 * and the runtime's compiler.
 */
export const FORMATS: Readonly<Record<string, (value: string) => boolean>> = {
  byte: isByte,
  uri: isUri,
  "uri-template": isUriTemplate,
  email: isEmail,
  date: isDate,
  "date-time": isDateTime,
  time: isTime,
  uuid: isUuid,
  ipv4: isIpv4,
  ipv6: isIpv6,
  hostname: isHostname,
};
