import { expect } from "chai";
import { GenerationError } from "../../codegen/errors.js";
import { loadSchema, type LoadedSchema } from "../../codegen/load/load.js";
import { SCHEMA_PATCHES, unusedPatches, type SchemaPatch } from "../../codegen/load/patches.js";
import type { Schema } from "../../runtime/json-schema/model/schema.js";
import { rawSchema, REVISIONS, schemaText, walkSchema, type Json, type JsonObject } from "../support/project.js";

/** PROTOCOL-NOTES.md, "Revisions": dialect, where the definitions live, how many. */
const FACTS = {
  "2024-11-05": { dialect: "draft-07", definitionsKey: "definitions", definitions: 79 },
  "2025-03-26": { dialect: "draft-07", definitionsKey: "definitions", definitions: 83 },
  "2025-06-18": { dialect: "draft-07", definitionsKey: "definitions", definitions: 91 },
  "2025-11-25": { dialect: "2020-12", definitionsKey: "$defs", definitions: 145 },
  "2026-07-28": { dialect: "2020-12", definitionsKey: "$defs", definitions: 155 },
} as const;

/** Reads a JSON Pointer (fragment form) with nothing but string handling: an oracle for the loader's pointers. */
function at(document: Json, pointer: string): Json | undefined {
  if (pointer === "#") return document;
  let node: Json | undefined = document;
  for (const token of pointer.slice(2).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"))) {
    if (typeof node !== "object" || node === null) return undefined;
    node = Array.isArray(node) ? node[Number(token)] : node[token];
  }
  return node;
}

/** Every node of the loaded model, by pointer. */
function loadedNodes(loaded: LoadedSchema): Map<string, Schema> {
  const nodes = new Map<string, Schema>();
  const visit = (schema: Schema) => {
    nodes.set(schema.pointer, schema);
    for (const p of schema.properties ?? []) visit(p.schema);
    if (schema.additionalProperties) visit(schema.additionalProperties);
    if (schema.items) visit(schema.items);
    for (const s of [...(schema.anyOf ?? []), ...(schema.allOf ?? [])]) visit(s);
  };
  for (const schema of loaded.definitions.values()) visit(schema);
  return nodes;
}

/** A pinned schema, parsed, changed by `mutate`, and serialised again. */
function mutated(revision: string, mutate: (document: JsonObject, definitions: Record<string, JsonObject>) => void): string {
  const { document, definitions } = rawSchema(revision);
  mutate(document, definitions);
  return JSON.stringify(document);
}

function expectGenerationError(run: () => unknown, revision: string, pointer: string, reason: RegExp): GenerationError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught, "expected a GenerationError").to.be.instanceOf(GenerationError);
  const error = caught as GenerationError;
  expect(error.revision).to.equal(revision);
  expect(error.pointer).to.equal(pointer);
  expect(error.reason).to.match(reason);
  expect(error.message).to.contain(revision).and.to.contain(pointer);
  return error;
}

describe("codegen/load", () => {
  describe("the pinned schemas", () => {
    for (const revision of REVISIONS) {
      describe(revision, () => {
        let loaded: LoadedSchema;
        let raw: ReturnType<typeof rawSchema>;
        before(() => {
          raw = rawSchema(revision);
          loaded = loadSchema(revision, schemaText(revision));
        });

        it(`is ${FACTS[revision].dialect}, with its definitions under ${FACTS[revision].definitionsKey}`, () => {
          expect(loaded.revision).to.equal(revision);
          expect(loaded.dialect).to.equal(FACTS[revision].dialect);
          expect(loaded.definitionsKey).to.equal(FACTS[revision].definitionsKey);
        });

        it(`loads all ${FACTS[revision].definitions} definitions, in source order`, () => {
          expect(Object.keys(raw.definitions)).to.have.length(FACTS[revision].definitions);
          expect([...loaded.definitions.keys()]).to.deep.equal(Object.keys(raw.definitions));
        });

        it("resolves every $ref to the definition it names, at the node's own pointer", () => {
          const nodes = loadedNodes(loaded);
          let refs = 0;
          for (const [name, definition] of Object.entries(raw.definitions))
            walkSchema(definition, `#/${raw.definitionsKey}/${name}`, (node, pointer) => {
              if (typeof node.$ref !== "string") return;
              refs++;
              const target = node.$ref.slice(`#/${raw.definitionsKey}/`.length);
              expect(raw.definitions, `${pointer} -> ${node.$ref}`).to.have.property(target);
              expect(nodes.get(pointer)?.ref, pointer).to.equal(target);
            });
          expect(refs).to.be.greaterThan(50);
        });

        it("gives every node a pointer that locates it in the source document", () => {
          const nodes = loadedNodes(loaded);
          expect(nodes.size).to.be.greaterThan(loaded.definitions.size);
          for (const [pointer, schema] of nodes) {
            const source = at(loaded.document as Json, pointer);
            expect(source, pointer).to.satisfy((s: unknown) => s === true || (typeof s === "object" && s !== null));
            // Links aside: the loader repairs their targets (test/codegen/load/doc-links.test.ts).
            if (schema.description !== undefined)
              expect(withoutLinks((source as JsonObject).description as string), pointer).to.equal(withoutLinks(schema.description));
          }
        });
      });
    }
  });

  describe("asserted schema patches follow content, not revision names", () => {
    it("apply exactly where upstream holds the expected value, and each fits some pinned revision", () => {
      expect(SCHEMA_PATCHES.length).to.be.greaterThan(0);
      const carried: string[][] = [];
      for (const revision of REVISIONS) {
        const loaded = loadSchema(revision, schemaText(revision));
        carried.push([...loaded.patches]);
        for (const patch of SCHEMA_PATCHES) {
          expect(patch.reason).to.be.a("string").that.is.not.empty;
          const upstream = at(rawSchema(revision).document, patch.pointer);
          const fits = JSON.stringify(upstream) === JSON.stringify(patch.expect);
          expect(loaded.patches.includes(patch.name), `${revision}: ${patch.name}`).to.equal(fits);
          expect(at(loaded.document as Json, patch.pointer), `${revision} ${patch.pointer}`).to.deep.equal(fits ? patch.replace : upstream);
        }
      }
      expect(unusedPatches(carried).map((p) => p.name)).to.deep.equal([]);
    });

    it("widen the known integer artefacts to number (PROTOCOL-NOTES, trap 7)", () => {
      const loaded = loadSchema("2026-07-28", schemaText("2026-07-28"));
      const nodes = loadedNodes(loaded);
      const primitive = nodes.get("#/$defs/JSONValue/anyOf/2");
      expect(primitive?.type).to.include("number").and.to.include("null").and.not.to.include("integer");
    });

    it("carry over to a new revision that copies the node, whatever its name", () => {
      const latest = REVISIONS.at(-1)!;
      const same = loadSchema(latest, schemaText(latest));
      const copy = loadSchema("2099-12-01", schemaText(latest));
      expect(copy.patches).to.deep.equal(same.patches).and.to.have.length.greaterThan(0);
      expect(copy.document).to.deep.equal(same.document);
    });

    it("are not applied where upstream changed the node, and one that fits nowhere is reported", () => {
      const revision = REVISIONS.find((r) => loadSchema(r, schemaText(r)).patches.length > 0)!;
      const patch = SCHEMA_PATCHES.find((p) => loadSchema(revision, schemaText(revision)).patches.includes(p.name))!;
      // Upstream fixed the artefact itself: the node now holds what the patch would have written.
      const text = mutated(revision, (document) => {
        const tokens = patch.pointer.slice(2).split("/");
        const last = tokens.pop()!;
        const parent = at(document, `#/${tokens.join("/")}`) as JsonObject;
        parent[last] = ["string", "boolean"];
      });
      const loaded = loadSchema(revision, text);
      expect(loaded.patches).not.to.include(patch.name);
      expect(at(loaded.document as Json, patch.pointer)).to.deep.equal(["string", "boolean"]);
      expect(unusedPatches([loaded.patches], [patch])).to.deep.equal([patch]);
    });

    it("do not apply when the expected value is not the one found, or the target does not exist", () => {
      const revision = "2025-11-25";
      const wrongValue: SchemaPatch = { name: "wrong", pointer: "#/$defs/Resource/properties/size/type", expect: "string", replace: "number", reason: "test" };
      const missing: SchemaPatch = { ...wrongValue, name: "missing", pointer: "#/$defs/NoSuchDefinition/properties/size/type" };
      const loaded = loadSchema(revision, schemaText(revision), [wrongValue, missing]);
      expect(loaded.patches).to.deep.equal([]);
      expect(at(loaded.document as Json, wrongValue.pointer)).to.equal("integer");
    });

    it("a matching patch rewrites the document and is reported carried", () => {
      const revision = "2025-11-25";
      const widen: SchemaPatch = { name: "widen", pointer: "#/$defs/Resource/properties/size/type", expect: "integer", replace: "number", reason: "test" };
      const loaded = loadSchema(revision, schemaText(revision), [widen]);
      expect(loaded.patches).to.deep.equal(["widen"]);
      expect(at(loaded.document as Json, widen.pointer)).to.equal("number");
      expect(loadedNodes(loaded).get("#/$defs/Resource/properties/size")?.type).to.deep.equal(["number"]);
      // Without the patch table, the upstream artefact is what loads.
      const unpatched = loadSchema(revision, schemaText(revision), []);
      expect(loadedNodes(unpatched).get("#/$defs/Resource/properties/size")?.type).to.deep.equal(["integer"]);
    });
  });

  describe("schemas it must refuse", () => {
    for (const revision of ["2025-06-18", "2025-11-25"] as const) {
      const key = FACTS[revision].definitionsKey;
      describe(`${revision} (${FACTS[revision].dialect})`, () => {
        it("an unknown keyword, at its pointer", () => {
          const text = mutated(revision, (_, defs) => {
            ((defs.Tool!.properties as JsonObject).name as JsonObject).patternProperties = { "^x": { type: "string" } };
          });
          expectGenerationError(
            () => loadSchema(revision, text),
            revision,
            `#/${key}/Tool/properties/name/patternProperties`,
            /unsupported keyword "patternProperties"/,
          );
        });

        it("oneOf, which the MCP schemas never use and the validators would not check", () => {
          const text = mutated(revision, (_, defs) => {
            defs.RequestId = { oneOf: [{ type: "string" }, { type: "integer" }] };
          });
          expectGenerationError(() => loadSchema(revision, text), revision, `#/${key}/RequestId/oneOf`, /unsupported keyword "oneOf"/);
        });

        it("a dangling $ref, at the $ref", () => {
          const text = mutated(revision, (_, defs) => {
            ((defs.CallToolResult!.properties as JsonObject).content as JsonObject).items = { $ref: `#/${key}/NoSuchContent` };
          });
          expectGenerationError(
            () => loadSchema(revision, text),
            revision,
            `#/${key}/CallToolResult/properties/content/items/$ref`,
            /dangling \$ref: no definition "NoSuchContent"/,
          );
        });

        it("a $ref into anything but the dialect's own definitions", () => {
          const other = key === "$defs" ? "definitions" : "$defs";
          const text = mutated(revision, (_, defs) => {
            (defs.CallToolResult!.properties as JsonObject).content = { $ref: `#/${other}/ContentBlock` };
          });
          expectGenerationError(
            () => loadSchema(revision, text),
            revision,
            `#/${key}/CallToolResult/properties/content/$ref`,
            /unsupported \$ref/,
          );
        });

        it("an unknown dialect, at #/$schema", () => {
          const text = mutated(revision, (document) => {
            document.$schema = "https://json-schema.org/draft/2019-09/schema";
          });
          expectGenerationError(() => loadSchema(revision, text), revision, "#/$schema", /unknown dialect "https:\/\/json-schema.org\/draft\/2019-09\/schema"/);
          const none = mutated(revision, (document) => {
            delete document.$schema;
          });
          expectGenerationError(() => loadSchema(revision, none), revision, "#/$schema", /missing: an MCP revision's schema\.json names its JSON Schema dialect/);
        });

        it("an unsupported format", () => {
          const text = mutated(revision, (_, defs) => {
            ((defs.Resource!.properties as JsonObject).uri as JsonObject).format = "duration";
          });
          expectGenerationError(() => loadSchema(revision, text), revision, `#/${key}/Resource/properties/uri/format`, /unsupported format "duration"/);
        });
      });
    }

    it("escapes a property name holding `/` in the pointer it reports (RFC 6901)", () => {
      const revision = "2026-07-28";
      const { definitions } = rawSchema(revision);
      let target: { definition: string; property: string } | undefined;
      for (const [definition, schema] of Object.entries(definitions)) {
        const property = Object.keys((schema.properties as JsonObject | undefined) ?? {}).find((name) => name.includes("/"));
        if (property && !target) target = { definition, property };
      }
      expect(target, "2026-07-28 has top-level properties named io.modelcontextprotocol/...").not.to.equal(undefined);
      const text = mutated(revision, (_, defs) => {
        ((defs[target!.definition]!.properties as JsonObject)[target!.property] as JsonObject).not = {};
      });
      expectGenerationError(
        () => loadSchema(revision, text),
        revision,
        `#/$defs/${target!.definition}/properties/${target!.property.replace(/\//g, "~1")}/not`,
        /unsupported keyword "not"/,
      );
    });

    it("a validation keyword beside $ref in draft-07, where it would be silently ignored", () => {
      const revision = "2025-06-18";
      const text = mutated(revision, (_, defs) => {
        const annotations = (defs.TextContent!.properties as JsonObject).annotations as JsonObject;
        annotations.type = "object";
      });
      expectGenerationError(() => loadSchema(revision, text), revision, "#/definitions/TextContent/properties/annotations", /draft-07 ignores keywords beside \$ref: type/);
    });

    it("text that is not JSON, or not an object, at #", () => {
      expectGenerationError(() => loadSchema("2025-11-25", "{ not json"), "2025-11-25", "#", /not valid JSON/);
      expectGenerationError(() => loadSchema("2025-11-25", "[1, 2]"), "2025-11-25", "#", /not a JSON object/);
    });

    it("a schema without its definitions object", () => {
      const text = JSON.stringify({ $schema: "https://json-schema.org/draft/2020-12/schema", definitions: {} });
      expectGenerationError(() => loadSchema("2099-01-01", text), "2099-01-01", "#/$defs", /definitions/);
    });
  });

  describe("schemas it must accept", () => {
    it("properties named like keywords are names, not keywords (PROTOCOL-NOTES, trap 9)", () => {
      const text = JSON.stringify({
        $schema: "https://json-schema.org/draft/2020-12/schema",
        $defs: {
          Weird: {
            type: "object",
            properties: { oneOf: { type: "string" }, $ref: { type: "integer" }, patternProperties: { $ref: "#/$defs/Other" } },
            required: ["oneOf"],
          },
          Other: { type: "boolean" },
        },
      });
      const loaded = loadSchema("2099-01-01", text, []);
      const weird = loaded.definitions.get("Weird")!;
      expect(weird.properties?.map((p) => p.name)).to.deep.equal(["oneOf", "$ref", "patternProperties"]);
      expect(weird.properties?.[2]?.schema.ref).to.equal("Other");
      expect(weird.properties?.[1]?.schema.pointer).to.equal("#/$defs/Weird/properties/$ref");
    });

    it("description and other annotations beside $ref in 2020-12 (PROTOCOL-NOTES, trap 4)", () => {
      const { document, definitions } = rawSchema("2025-11-25");
      let found = 0;
      for (const [name, schema] of Object.entries(definitions))
        walkSchema(schema, `#/$defs/${name}`, (node) => {
          if (typeof node.$ref === "string" && typeof node.description === "string") found++;
        });
      expect(found, "2025-11-25 has $ref with a sibling description").to.be.greaterThan(0);
      const loaded = loadSchema("2025-11-25", JSON.stringify(document));
      const annotations = loaded.definitions.get("TextContent")!.properties!.find((p) => p.name === "annotations")!.schema;
      expect(annotations.ref).to.equal("Annotations");
      expect(annotations.description).to.be.a("string").that.is.not.empty;
    });
  });
});

function withoutLinks(text: string): string {
  return text.replace(/\{@link [^}]*\}/g, "{@link}");
}
