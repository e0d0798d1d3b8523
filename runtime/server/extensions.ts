import type { ValidateFunction } from "ajv";
import type { Handler } from "../dispatch/context.js";
import type { ExtensionMethod } from "../dispatch/router.js";
import { ErrorCode, RpcError } from "../jsonrpc/errors.js";
import { describeErrors, type SchemaCompiler } from "./json-schema.js";

/** The JSON Schemas of an extension method's params and result (draft-07 or 2020-12, by `$schema`). */
export interface MethodSchemas {
  readonly params?: Record<string, unknown>;
  readonly result?: Record<string, unknown>;
}

/**
 * Methods that no served revision defines, e.g. an extension's (SEP-2133), each held to the
 * schemas it was registered with. The schemas compile on a method's first call, as tool
 * schemas do (runtime/server/tools.ts).
 */
export function extensionMethod(method: string, handler: Handler, schemas: MethodSchemas, compiler: SchemaCompiler): ExtensionMethod {
  let params: ValidateFunction | undefined;
  let result: ValidateFunction | undefined;
  const compile = (which: "params" | "result"): ValidateFunction => {
    try {
      return compiler.compile(schemas[which] ?? { type: "object" });
    } catch (error) {
      throw new RpcError(ErrorCode.InternalError, `the ${which} schema of ${method} is not a valid JSON Schema: ${(error as Error).message}`);
    }
  };
  return {
    handler,
    checkParams(value) {
      params ??= compile("params");
      if (!params(value))
        throw new RpcError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${describeErrors(params.errors)}`, {
          issues: (params.errors ?? []).map((e) => ({ path: e.instancePath, keyword: e.keyword, message: e.message ?? e.keyword })),
        });
    },
    checkResult(value) {
      result ??= compile("result");
      if (!result(value)) throw new RpcError(ErrorCode.InternalError, `the handler for ${method} returned an invalid result: ${describeErrors(result.errors)}`);
    },
  };
}
