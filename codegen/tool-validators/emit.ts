import CodeBlockWriter from "code-block-writer";
import { jsonExpression, propertyKey } from "../json.js";
import { pointerTokens } from "../../runtime/json-schema/pointer.js";
import { writeDefinitions } from "../../runtime/json-schema/render/functions.js";
import { Lowering } from "../../runtime/json-schema/render/lower.js";
import { Helpers, identifierOf } from "../../runtime/json-schema/render/names.js";
import { CheckRenderer } from "../../runtime/json-schema/render/render-check.js";
import { IsRenderer } from "../../runtime/json-schema/render/render-is.js";
import { GenerationError } from "../errors.js";
import { IN_PROJECT } from "../emit/module.js";
import { supportUsedBy } from "../../runtime/json-schema/render/support.js";
import type { LoadedToolSchemas, ToolSchemaEntry } from "./load.js";

/**
 * tools.ts of `generate --tools`: up to an `is`, a `check` and a `describe` function per tool
 * schema (and per `$defs` entry and hoisted sub-schema: those printed code calls), printed from
 * the same check IR as the protocol's own validators, and `toolValidators`, which
 * `createServer({ toolValidators })` takes. `describe` joins the issues into the text a tool's
 * caller reads as it finds them, as the runtime's code mode does: invalid arguments take about a
 * third less time than with `check` and then joining. Each entry
 * carries the schema it was compiled from: the runtime uses a compiled validator only for a
 * tool registered with that same schema. It imports its support functions from `support`: the
 * runtime package's, which a project serving the tools has installed.
 */
export function emitToolValidators(source: string, entries: readonly ToolSchemaEntry[], loaded: LoadedToolSchemas, support = IN_PROJECT.support): string {
  const body = new CodeBlockWriter({ indentNumberOfSpaces: 2 });
  // A place in the manifest (`mcp.server.json#/tools/0/inputSchema/...`), or in a remote document (its URI and pointer).
  const where = (pointer: string) => (pointer.startsWith("#") ? `${source}${pointer}` : pointer);
  const lowering = new Lowering(
    (name) => loaded.definitions.get(name)!,
    (at, reason) => {
      throw new GenerationError(source, at, reason);
    },
  );
  // A helper is named after its tool schema and the pointer inside it: #/tools/0/inputSchema/properties/unit/anyOf/1 -> GetWeatherInput_unit_anyOf_1.
  const roots = new Map<string, string>();
  loaded.tools.forEach((tool, i) => {
    roots.set(`#/tools/${i}/inputSchema`, tool.input);
    if (tool.output) roots.set(`#/tools/${i}/outputSchema`, tool.output);
  });
  const helpers = new Helpers(
    (name) => loaded.definitions.has(name),
    (pointer) => {
      // A sub-schema of a remote document (--tools-remotes): named after its URI and pointer.
      if (!pointer.startsWith("#")) return identifierOf(["Remote", pointer]);
      const tokens = pointerTokens(pointer);
      return identifierOf([roots.get(`#/tools/${tokens[1]}/${tokens[2]}`) ?? "Tool", ...tokens.slice(3)]);
    },
  );
  const is = new IsRenderer(body, helpers);
  const checks = [new CheckRenderer(body, helpers), new CheckRenderer(body, helpers, true, true)];

  writeDefinitions(body, loaded.definitions, roots.values(), lowering, helpers, is, checks, where);
  body.blankLine();
  body.writeLine("/** By tool name: each schema as compiled, and its validators. */");
  body.writeLine("export const toolValidators = {");
  body.indent(() => {
    loaded.tools.forEach((tool, i) => {
      const entry = entries[i]!;
      body.writeLine(`${propertyKey(tool.name)}: {`);
      body.indent(() => {
        const validators = (name: string) => `is: is${name}, check: (value: unknown) => check${name}(value, "", []), describe: (value: unknown) => describe${name}(value, "", "")`;
        body.writeLine(`input: { schema: ${jsonExpression(entry.inputSchema)}, ${validators(tool.input)} },`);
        if (tool.output) body.writeLine(`output: { schema: ${jsonExpression(entry.outputSchema)}, ${validators(tool.output)} },`);
      });
      body.writeLine("},");
    });
  });
  body.writeLine("};");

  const text = body.toString();
  const head = new CodeBlockWriter({ indentNumberOfSpaces: 2 });
  head.writeLine(`/* Tool validators of ${source}, compiled by mcp-codegen (generate --tools). Do not edit; regenerate. Needs nothing at run time but ${support}. */`);
  head.blankLine();
  head.writeLine(`import { ${[...supportUsedBy(text), "type ValidationIssue"].join(", ")} } from ${JSON.stringify(support)};`);
  if (lowering.patterns.size > 0) {
    head.blankLine();
    // Compiled once, when the module loads: a RegExp, not code generation.
    for (const [pattern, name] of lowering.patterns) head.writeLine(`const ${name} = new RegExp(${JSON.stringify(pattern)}, "u");`);
  }
  if (lowering.constants.size > 0) {
    head.blankLine();
    for (const { name, value } of lowering.constants.values()) head.writeLine(`const ${name}: unknown = ${jsonExpression(value)};`);
  }
  return head.toString() + text;
}
