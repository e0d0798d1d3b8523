import { Project, type FunctionDeclaration, type SourceFile } from "ts-morph";
import type { Kind, PromptEntry, ResourceEntry, TemplateEntry, ToolEntry } from "./manifest.js";
import { stubIdentifier, typeNames } from "./generated.js";
import { sampleOf } from "./samples.js";

/**
 * One stub per manifest entry: a default-exported function the user fills in. The generator
 * owns three things in it, and merges them into an existing stub with ts-morph: the first
 * paragraph of the function's doc comment, its parameter and return types, and the imports
 * those types need. Everything else (the body, other imports, helpers) is the user's and is
 * never rewritten.
 */

type Entry = ToolEntry | ResourceEntry | TemplateEntry | PromptEntry;

interface Shape {
  readonly summary: string;
  /** Parameter name and type, in order. */
  readonly params: readonly (readonly [string, string])[];
  readonly returns: string;
  /** Named type imports: module -> names. */
  readonly imports: Readonly<Record<string, readonly string[]>>;
  /** The placeholder body of a new stub. */
  readonly body: string;
}

const RUNTIME = "@mcp-codegen/runtime";
const TYPES = "../generated/types.js";
const q = JSON.stringify;

function shapeOf(kind: Kind, entry: Entry): Shape {
  const describe = (what: string) => `${what}${entry.description ? `: ${entry.description}` : "."}`;
  const names = typeNames(kind, entry.name);
  switch (kind) {
    case "tools": {
      const tool = entry as ToolEntry;
      const structured = tool.outputSchema ? `\n    structuredContent: ${q(sampleOf(tool.outputSchema))},` : "";
      return {
        summary: describe(`The tool \`${tool.name}\``),
        params: [
          ["args", names.args!],
          ["context", "RequestContext"],
        ],
        returns: `Promise<${names.result}>`,
        imports: { [RUNTIME]: ["RequestContext"], [TYPES]: [names.args!, names.result!] },
        body: `  // Replace this placeholder with the tool's work. Arguments arrive checked against its inputSchema;
  // a throw becomes an isError result the model can read.
  return {
    content: [{ type: "text", text: \`${tool.name} is not implemented yet (arguments: \${JSON.stringify(args)})\` }],${structured}
  };`,
      };
    }
    case "resources": {
      const resource = entry as ResourceEntry;
      return {
        summary: describe(`The resource \`${resource.uri}\``),
        params: [
          ["uri", "string"],
          ["context", "RequestContext"],
        ],
        returns: "Promise<ReadResourceResult>",
        imports: { [RUNTIME]: ["ReadResourceResult", "RequestContext"] },
        body: `  // Replace this placeholder with the resource's contents.
  return { contents: [{ uri, mimeType: ${q(resource.mimeType ?? "text/plain")}, text: ${q(`${resource.name} is not written yet.`)} }] };`,
      };
    }
    case "resourceTemplates": {
      const template = entry as TemplateEntry;
      return {
        summary: describe(`The resource template \`${template.uriTemplate}\``),
        params: [
          ["uri", "string"],
          ["variables", names.args!],
          ["context", "RequestContext"],
        ],
        returns: "Promise<ReadResourceResult>",
        imports: { [RUNTIME]: ["ReadResourceResult", "RequestContext"], [TYPES]: [names.args!] },
        body: `  // Replace this placeholder with the contents of the resource \`uri\` names; throw resourceNotFound(uri, context) when there is none.
  return { contents: [{ uri, mimeType: ${q(template.mimeType ?? "text/plain")}, text: \`${template.name} \${JSON.stringify(variables)} is not written yet.\` }] };`,
      };
    }
    case "prompts": {
      const prompt = entry as PromptEntry;
      return {
        summary: describe(`The prompt \`${prompt.name}\``),
        params: [
          ["args", names.args!],
          ["context", "RequestContext"],
        ],
        returns: "Promise<GetPromptResult>",
        imports: { [RUNTIME]: ["GetPromptResult", "RequestContext"], [TYPES]: [names.args!] },
        body: `  // Replace this placeholder with the prompt's messages.
  return {
    messages: [{ role: "user", content: { type: "text", text: \`${prompt.name} is not written yet (arguments: \${JSON.stringify(args)})\` } }],
  };`,
      };
    }
  }
}

/** A new stub's text. */
export function newStub(kind: Kind, entry: Entry): string {
  const shape = shapeOf(kind, entry);
  const imports = Object.entries(shape.imports).map(([module, names]) => `import type { ${[...names].sort().join(", ")} } from ${q(module)};`);
  const params = shape.params.map(([name, type]) => `${name}: ${type}`).join(", ");
  return `${imports.join("\n")}

/**
 * ${shape.summary.replace(/\*\//g, "*\\/")}
 *
 * Yours to edit: \`mcp-codegen scaffold\` keeps this file's code as it is, and only brings this
 * comment's first paragraph, the parameter and return types and their imports in line with mcp.server.json.
 */
export default async function ${stubIdentifier(kind, entry.name)}(${params}): ${shape.returns} {
${shape.body}
}
`;
}

export interface MergeResult {
  /** The new text, or undefined when nothing needed to change. */
  readonly text?: string;
  /** What was brought in line, for the report. */
  readonly changes: readonly string[];
  /** Why the stub was left alone, when it was. */
  readonly problem?: string;
}

/** Brings an existing stub's generated parts in line with its entry; the user's code stays byte for byte. */
export function mergeStub(kind: Kind, entry: Entry, text: string): MergeResult {
  const shape = shapeOf(kind, entry);
  const project = new Project({ useInMemoryFileSystem: true, skipAddingFilesFromTsConfig: true });
  const file = project.createSourceFile("stub.ts", text);
  const fn = file.getFunctions().find((f) => f.isDefaultExport());
  if (!fn) return { changes: [], problem: "it has no `export default function`, so it was left as it is (and registering it will fail to compile)" };
  const changes: string[] = [];

  const summary = shape.summary;
  const doc = fn.getJsDocs()[0];
  if (!doc) {
    fn.addJsDoc({ description: summary });
    changes.push("doc comment");
  } else {
    const description = doc.getDescription().replace(/^\n+/, "");
    const [first, ...rest] = description.split(/\n\s*\n/);
    if ((first ?? "").replace(/\s+/g, " ").trim() !== summary.replace(/\s+/g, " ").trim()) {
      doc.setDescription([summary, ...rest].join("\n\n"));
      changes.push("doc comment");
    }
  }

  fn.getParameters().forEach((parameter, i) => {
    const wanted = shape.params[i]?.[1];
    if (wanted !== undefined && parameter.getTypeNode()?.getText() !== wanted) {
      parameter.setType(wanted);
      changes.push(`type of ${parameter.getName()}`);
    }
  });
  const returns = fn.getReturnTypeNode()?.getText();
  const syncReturn = shape.returns.replace(/^Promise<(.*)>$/, "$1");
  if (returns !== shape.returns && !(returns === syncReturn && !fn.isAsync())) {
    fn.setReturnType(fn.isAsync() ? shape.returns : syncReturn);
    changes.push("return type");
  }

  const used = usedTypeNames(fn);
  for (const [module, names] of Object.entries(shape.imports)) {
    const needed = names.filter((name) => used.has(name) && !isImported(file, name));
    if (needed.length === 0) continue;
    const declaration = file.getImportDeclarations().find((d) => d.getModuleSpecifierValue() === module);
    if (declaration) declaration.addNamedImports(needed.map((name) => (declaration.isTypeOnly() ? name : { name, isTypeOnly: true })));
    else file.insertImportDeclaration(lastImportIndex(file), { moduleSpecifier: module, namedImports: needed, isTypeOnly: true });
    changes.push(`import of ${needed.join(", ")}`);
  }
  return changes.length ? { text: file.getFullText(), changes } : { changes };
}

function usedTypeNames(fn: FunctionDeclaration): Set<string> {
  const text = [...fn.getParameters().map((p) => p.getTypeNode()?.getText() ?? ""), fn.getReturnTypeNode()?.getText() ?? ""].join(" ");
  return new Set(text.match(/[A-Za-z_$][\w$]*/g) ?? []);
}

function isImported(file: SourceFile, name: string): boolean {
  return file.getImportDeclarations().some((d) => d.getNamedImports().some((n) => (n.getAliasNode()?.getText() ?? n.getName()) === name));
}

function lastImportIndex(file: SourceFile): number {
  const imports = file.getImportDeclarations();
  return imports.length === 0 ? 0 : imports.at(-1)!.getChildIndex() + 1;
}
