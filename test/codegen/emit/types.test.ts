/**
 * generated/<rev>/types.ts against the schema JSON it came from: every definition exported
 * under its own name and nothing numbered beside it, aliases kept as aliases, properties and
 * their optionality, descriptions as TSDoc, quoted `_meta` keys. The file is read with the
 * TypeScript parser, the schema with JSON.parse: neither side goes through our model.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "chai";
import ts from "typescript";
import { rawSchema, REVISIONS, ROOT, walkSchema, type JsonObject } from "../../support/project.js";

type Declaration = ts.InterfaceDeclaration | ts.TypeAliasDeclaration;

interface ParsedTypes {
  readonly file: ts.SourceFile;
  readonly exports: Map<string, Declaration>;
  readonly duplicates: string[];
  readonly strays: string[];
}

function parseTypes(revision: string): ParsedTypes {
  const path = join(ROOT, "generated", revision, "types.ts");
  const file = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const exports = new Map<string, Declaration>();
  const duplicates: string[] = [];
  const strays: string[] = [];
  for (const statement of file.statements) {
    const exported = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if ((ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) && exported) {
      if (exports.has(statement.name.text)) duplicates.push(statement.name.text);
      exports.set(statement.name.text, statement);
    } else strays.push(statement.getText(file).slice(0, 80));
  }
  return { file, exports, duplicates, strays };
}

/** The TSDoc above a node, as plain text with whitespace collapsed. */
function tsdoc(node: ts.Node, file: ts.SourceFile): string {
  return ts
    .getJSDocCommentsAndTags(node)
    .filter(ts.isJSDoc)
    .map((doc) => file.text.slice(doc.pos, doc.end))
    .join(" ")
    .replace(/^\/\*\*|\*\/$/g, "")
    .replace(/\n\s*\*/g, "\n")
    .replace(/\s+/g, " ")
    .trim();
}

/** Whitespace collapsed, and link targets aside: the loader repairs them (test/codegen/load/doc-links.test.ts). */
const collapse = (text: string) => text.replace(/\{@link [^}]*\}/g, "{@link}").replace(/\s+/g, " ").trim();

function memberName(member: ts.TypeElement): string | undefined {
  const name = member.name;
  if (name === undefined) return undefined;
  if (ts.isIdentifier(name) || ts.isStringLiteral(name)) return name.text;
  return undefined;
}

/** The members of a union type node as source text (a single type is a union of one). */
function unionMembers(node: ts.TypeNode, file: ts.SourceFile): string[] {
  const unwrapped = ts.isParenthesizedTypeNode(node) ? node.type : node;
  if (ts.isUnionTypeNode(unwrapped)) return unwrapped.types.flatMap((t) => unionMembers(t, file));
  return [unwrapped.getText(file)];
}

/** What a simple alias definition must become, from its JSON alone: $ref, enum, or primitive types. */
function expectedAliasMembers(definition: JsonObject): string[] {
  if (typeof definition.$ref === "string") return [definition.$ref.split("/").pop()!];
  if (Array.isArray(definition.enum)) return definition.enum.map((value) => JSON.stringify(value));
  const types = Array.isArray(definition.type) ? definition.type : [definition.type];
  return [...new Set(types.map((t) => (t === "integer" ? "number" : String(t))))];
}

const ALIASES = ["RequestId", "ProgressToken", "LoggingLevel", "EmptyResult", "Cursor"];

describe("codegen/emit/types: generated/<rev>/types.ts", () => {
  for (const revision of REVISIONS) {
    describe(revision, () => {
      let parsed: ParsedTypes;
      let raw: ReturnType<typeof rawSchema>;
      before(() => {
        parsed = parseTypes(revision);
        raw = rawSchema(revision);
      });

      it("declares only exported interfaces and type aliases, each name once", () => {
        expect(parsed.strays).to.deep.equal([]);
        expect(parsed.duplicates).to.deep.equal([]);
      });

      it("exports every definition of the schema under its own name", () => {
        const missing = Object.keys(raw.definitions).filter((name) => !parsed.exports.has(name));
        expect(missing).to.deep.equal([]);
      });

      it("exports no numbered duplicate, and nothing beyond the definitions but named inline params", () => {
        const names = new Set(Object.keys(raw.definitions));
        const numbered = [...parsed.exports.keys()].filter((name) => {
          const match = /^(.*\D)\d+$/.exec(name);
          return !names.has(name) && match !== null && names.has(match[1]!);
        });
        expect(numbered, "numbered variants of a definition").to.deep.equal([]);

        // A concrete message (const `method`) whose params the schema declares inline.
        const inlineParams = new Set(
          Object.entries(raw.definitions)
            .filter(([, d]) => {
              const properties = (d.properties as JsonObject | undefined) ?? {};
              const method = properties.method as JsonObject | undefined;
              const params = properties.params;
              return typeof method?.const === "string" && typeof params === "object" && params !== null && !("$ref" in params);
            })
            .map(([name]) => `${name}Params`),
        );
        const extra = [...parsed.exports.keys()].filter((name) => !names.has(name) && !inlineParams.has(name));
        expect(extra, "exports that are neither a definition nor a message's inline params").to.deep.equal([]);
      });

      it(`keeps ${ALIASES.join(", ")} as type aliases of what the schema says`, () => {
        const present = ALIASES.filter((name) => name in raw.definitions);
        expect(present, "all five aliases exist in every pinned revision").to.deep.equal(ALIASES);
        for (const name of present) {
          const declaration = parsed.exports.get(name);
          expect(declaration && ts.isTypeAliasDeclaration(declaration), `${name} is a type alias`).to.equal(true);
          const members = unionMembers((declaration as ts.TypeAliasDeclaration).type, parsed.file);
          expect(members.sort(), name).to.deep.equal(expectedAliasMembers(raw.definitions[name]!).sort());
        }
      });

      it("types every property of an object definition, optional exactly when the schema does not require it", () => {
        let checked = 0;
        for (const [name, definition] of Object.entries(raw.definitions)) {
          const declaration = parsed.exports.get(name);
          if (!declaration || !ts.isInterfaceDeclaration(declaration) || typeof definition.properties !== "object") continue;
          const members = new Map(declaration.members.map((m) => [memberName(m), m]));
          const required = new Set((definition.required as string[] | undefined) ?? []);
          for (const property of Object.keys(definition.properties as JsonObject)) {
            const member = members.get(property);
            expect(member && ts.isPropertySignature(member), `${name}.${property}`).to.equal(true);
            expect((member as ts.PropertySignature).questionToken === undefined, `${name}.${property} required`).to.equal(required.has(property));
            checked++;
          }
        }
        expect(checked).to.be.greaterThan(100);
      });

      it("turns descriptions into TSDoc, on definitions and on their properties", () => {
        let checked = 0;
        for (const [name, definition] of Object.entries(raw.definitions)) {
          const declaration = parsed.exports.get(name)!;
          if (typeof definition.description === "string") {
            expect(collapse(tsdoc(declaration, parsed.file)), name).to.contain(collapse(definition.description));
            checked++;
          }
          if (!ts.isInterfaceDeclaration(declaration) || typeof definition.properties !== "object") continue;
          const members = new Map(declaration.members.map((m) => [memberName(m), m]));
          for (const [property, schema] of Object.entries(definition.properties as Record<string, JsonObject>)) {
            if (typeof schema.description !== "string") continue;
            expect(collapse(tsdoc(members.get(property)!, parsed.file)), `${name}.${property}`).to.contain(collapse(schema.description));
            checked++;
          }
        }
        expect(checked).to.be.greaterThan(100);
      });

      it("quotes property names holding `/` or `.` (the _meta keys)", () => {
        const needQuotes = new Set<string>();
        for (const [name, definition] of Object.entries(raw.definitions))
          walkSchema(definition, `#/${raw.definitionsKey}/${name}`, (node) => {
            for (const property of Object.keys((node.properties as JsonObject | undefined) ?? {}))
              if (/[/.]/.test(property)) needQuotes.add(property);
          });
        if (revision === "2026-07-28") expect(needQuotes, "2026-07-28 has io.modelcontextprotocol/ keys").to.include("io.modelcontextprotocol/protocolVersion");
        const quoted = new Set<string>();
        const visit = (node: ts.Node): void => {
          if (ts.isPropertySignature(node) && ts.isStringLiteral(node.name)) quoted.add(node.name.text);
          ts.forEachChild(node, visit);
        };
        visit(parsed.file);
        for (const key of needQuotes) expect(quoted.has(key), `"${key}" is a quoted property name`).to.equal(true);
      });
    });
  }

  describe("2026-07-28 JSON values", () => {
    it("exports the recursive JSONValue / JSONObject / JSONArray, null included", () => {
      const { exports, file } = parseTypes("2026-07-28");
      const value = exports.get("JSONValue");
      expect(value && ts.isTypeAliasDeclaration(value), "JSONValue is a type alias").to.equal(true);
      const members = unionMembers((value as ts.TypeAliasDeclaration).type, file);
      expect(members).to.include("JSONObject").and.to.include("null").and.to.include("number").and.to.include("string").and.to.include("boolean");
      expect(members.some((m) => m === "JSONValue[]" || m === "JSONArray"), `an array of JSONValue among ${members.join(" | ")}`).to.equal(true);

      const object = exports.get("JSONObject")!;
      expect(object, "JSONObject").to.not.equal(undefined);
      const objectMembers: readonly ts.TypeElement[] = ts.isInterfaceDeclaration(object) ? object.members : [];
      const index = objectMembers.find((m): m is ts.IndexSignatureDeclaration => ts.isIndexSignatureDeclaration(m));
      expect(index?.type.getText(file), "JSONObject maps strings to JSONValue").to.equal("JSONValue");
      expect(exports.has("JSONArray")).to.equal(true);
    });
  });
});
