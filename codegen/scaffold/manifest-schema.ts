/**
 * The JSON Schema of mcp.server.json: the one statement of its structure. The scaffold's checker
 * validates every manifest against it (manifest-check.ts), the mcp-codegen package ships it as
 * mcp.server.schema.json (packages/pack.ts), and a new manifest's `$schema` points at that file
 * so editors complete and check it. Each `description` is also the fix a refusal names.
 */

/** The file the mcp-codegen package ships the schema as, at its root. */
export const MANIFEST_SCHEMA_FILE = "mcp.server.schema.json";

/**
 * A new manifest's `$schema`: the copy in the project's own node_modules. Relative, so it works
 * offline and always describes the installed mcp-codegen, the one whose checker runs; a URL would
 * need hosting and could name another version than the project's.
 */
export const MANIFEST_SCHEMA_REF = `./node_modules/mcp-codegen/${MANIFEST_SCHEMA_FILE}`;

const text = (description: string) => ({ type: "string", description }) as const;
const NAME = {
  type: "string",
  pattern: "^[A-Za-z0-9_.-]{1,128}$",
  description: "Use 1 to 128 of A-Z a-z 0-9 _ . - (it names the stub's file and types too).",
} as const;
const OBJECT_SCHEMA = (what: string) =>
  ({
    type: "object",
    required: ["type"],
    properties: { type: { const: "object", description: `${what} describes a JSON object: give it "type": "object".` } },
    description: `${what}: a JSON Schema (2020-12, or draft-07 when its $schema says so) with "type": "object".`,
  }) as const;
const common = {
  name: NAME,
  title: text("A display name."),
  description: text("What it is for: the model reads this."),
  icons: { type: "array", items: { type: "object" }, description: "Icons, as the protocol's Icon objects." },
  _meta: { type: "object", description: "Protocol metadata, sent as written." },
} as const;
const STRINGS = { type: "object", additionalProperties: { type: "string" } } as const;

export const MANIFEST_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "mcp.server.json",
  description: "An MCP server scaffolded by `mcp-codegen scaffold`: edit this file, then run the scaffold again.",
  type: "object",
  required: ["name", "version"],
  additionalProperties: false,
  properties: {
    $schema: text("This file's JSON Schema, for editors."),
    name: { type: "string", minLength: 1, description: "The server's name, as initialize reports it." },
    version: { type: "string", minLength: 1, description: "The server's version, as initialize reports it." },
    description: text("What the server does."),
    revisions: {
      type: "array",
      // As `generate --out --name` accepts it: a revision generated into the project may be named (a draft, say).
      items: { type: "string", pattern: "^[A-Za-z0-9][A-Za-z0-9._-]*$", description: "A revision: one the runtime pins, such as 2025-11-25, or one generated into this project with `mcp-codegen generate --out`." },
      description: "The MCP revisions to speak: pinned ones by date, and any generated into this project (generate --out); leave it out for every revision the runtime pins.",
    },
    transport: { enum: ["stdio", "http"], default: "stdio", description: "How src/main.ts serves: stdio or Streamable HTTP on 127.0.0.1." },
    tools: {
      type: "array",
      description: "The server's tools, each with a stub in src/tools/.",
      items: {
        type: "object",
        required: ["name", "inputSchema"],
        additionalProperties: false,
        properties: {
          ...common,
          inputSchema: OBJECT_SCHEMA("A tool's inputSchema"),
          outputSchema: OBJECT_SCHEMA("A tool's outputSchema"),
          annotations: { type: "object", description: "Hints about the tool's behaviour (readOnlyHint, destructiveHint...)." },
          execution: { type: "object", description: "How the tool runs (taskSupport)." },
          example: { type: "object", description: "Arguments the generated test sends; they must satisfy the inputSchema." },
        },
      },
    },
    resources: {
      type: "array",
      description: "The server's fixed resources, each with a stub in src/resources/.",
      items: {
        type: "object",
        required: ["name", "uri"],
        additionalProperties: false,
        properties: {
          ...common,
          uri: { type: "string", minLength: 1, description: "The resource's URI." },
          mimeType: text("The MIME type of its contents."),
          size: { type: "integer", minimum: 0, description: "Its size in bytes, when known." },
          annotations: { type: "object", description: "Hints about the resource (audience, priority...)." },
        },
      },
    },
    resourceTemplates: {
      type: "array",
      description: "The server's resource templates, each with a stub in src/templates/.",
      items: {
        type: "object",
        required: ["name", "uriTemplate"],
        additionalProperties: false,
        properties: {
          ...common,
          uriTemplate: { type: "string", minLength: 1, description: "An RFC 6570 URI template, such as notes://{id} or file:///{+path}." },
          mimeType: text("The MIME type of its contents."),
          annotations: { type: "object", description: "Hints about the resources (audience, priority...)." },
          example: { ...STRINGS, description: "Variable values the generated test reads the template with." },
        },
      },
    },
    prompts: {
      type: "array",
      description: "The server's prompts, each with a stub in src/prompts/.",
      items: {
        type: "object",
        required: ["name"],
        additionalProperties: false,
        properties: {
          ...common,
          arguments: {
            type: "array",
            description: "The prompt's arguments (strings).",
            items: {
              type: "object",
              required: ["name"],
              additionalProperties: false,
              properties: {
                name: { type: "string", minLength: 1, description: "The argument's name." },
                title: text("A display name."),
                description: text("What the argument is for."),
                required: { type: "boolean", description: "Whether it must be given." },
              },
            },
          },
          example: { ...STRINGS, description: "Arguments the generated test sends." },
        },
      },
    },
  },
} as const;
