import type { Handler, RequestContext } from "../dispatch/context.js";
import { CACHEABLE_EXTENSION, type ExtensionMethod } from "../dispatch/router.js";
import { ErrorCode, HandlerFault, RpcError } from "../jsonrpc/errors.js";
import { declaredExtension, type LoadedExtension } from "../session/extensions.js";
import { checkRequest, checkResult, isValidResult, reported, summarize } from "../session/validate.js";
import type { CompiledCheck, MethodSchemas, SchemaCompiler } from "../shared/json-schema.js";
import { isThenable } from "../util/thenable.js";

export type { MethodSchemas };

/**
 * Methods that no served revision defines, e.g. an extension's (SEP-2133), each held to the
 * schemas it was registered with. The schema engine loads on the first call of such a method (not
 * at registration: a server answers initialize before it), and the schemas compile on the
 * method's first call, as tool schemas do (runtime/server/tools.ts).
 */
export function extensionMethod(method: string, handler: Handler, schemas: MethodSchemas, compiler: SchemaCompiler): ExtensionMethod {
  const compiled: Partial<Record<"params" | "result", CompiledCheck>> = {};
  const schema = (which: "params" | "result"): CompiledCheck => {
    try {
      return (compiled[which] ??= compiler.compileCheck(schemas[which] ?? { type: "object" }));
    } catch (error) {
      throw new RpcError(ErrorCode.InternalError, `the ${which} schema of ${method} cannot be used: ${(error as Error).message}`);
    }
  };
  // As a core method's: -32602, each issue's path from the message's root (`/params/uri`), in
  // `data.issues`; params the request left out are missing at the root, not wrong at /params.
  const checkParams = (value: unknown, absent: boolean): void => {
    const params = schema("params");
    if (params.validate(value) === undefined) return;
    const issues = absent
      ? [{ path: "", schemaPath: "#", keyword: "required", message: "must have required property 'params'" }]
      : params.issues(value).map((issue) => ({ ...issue, path: `/params${issue.path}` }));
    throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${summarize(issues)}`, { issues: reported(issues) });
  };
  return {
    // The dispatcher checks params before it calls the handler; until the engine has loaded (a
    // promise once, then never again), the handler checks them once it has.
    handler(params, context) {
      const engine = compiler.load();
      if (!isThenable(engine)) return handler(params, context);
      return Promise.resolve(engine).then(() => {
        checkParams(params, false);
        return handler(params, context);
      });
    },
    descriptor: schemas.cacheable ? CACHEABLE_EXTENSION : undefined,
    checkParams(value, request) {
      if (!isThenable(compiler.load())) checkParams(value, request.params === undefined);
    },
    checkResult(value) {
      const problem = schema("result").validate(value);
      if (problem !== undefined) throw new HandlerFault(`the handler for ${method} returned an invalid result: ${problem}`);
    },
  };
}

/**
 * A request of a generated extension module (`server.useExtension`), checked by its generated
 * validators as a core method is: the whole request (-32602 with `data.issues` and their paths),
 * then the result against the definitions the method may answer with.
 */
export function generatedMethod(extension: LoadedExtension, method: string, handler: Handler): ExtensionMethod {
  const descriptor = extension.methods.get(method);
  if (!descriptor || descriptor.kind !== "request" || !descriptor.senders.includes("client"))
    throw new Error(`${method} is not a client request of the extension ${extension.id}`);
  return {
    handler,
    descriptor,
    checkParams(_params, request) {
      checkRequest(extension, descriptor, request);
    },
    checkResult(result) {
      if (!isValidResult(extension, descriptor, result)) checkResult(extension, descriptor, method, result);
    },
  };
}

/**
 * What the client declared for an extension, for this request: its settings object, or
 * undefined when it did not declare it. Session era: at initialize; 2026-07-28: in the request's
 * `_meta` client capabilities, which may differ from one request to the next (SEP-2133).
 */
export function clientExtension(context: RequestContext, id: string): Record<string, unknown> | undefined {
  return declaredExtension(context.client.capabilities, id);
}
