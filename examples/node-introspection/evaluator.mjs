// The evaluate tool's evaluator: one short-lived Node.js process per evaluation, started by
// evaluate.ts with a small heap and Node's permission model (no file system beyond this file, no
// child processes, no workers). Plain JavaScript so that it starts without a TypeScript loader.
//
// Input on stdin: {"expression": "...", "timeoutMs": N}. Output on stdout: one JSON line,
// {"outcome": "ok:<text>" | "error:<text>" | "timeout:"}.
//
// The expression runs in a fresh V8 context whose global object has a null prototype and holds no
// host object: no require, no process, no timers, no console that reaches a stream. Everything
// that touches the value the expression produced (evaluating, then formatting it as text) runs
// inside that context, under the time limit, and only a string primitive comes out. See the
// README for what this does and does not protect against.
import vm from "node:vm";
import { types } from "node:util";

// Runs inside the context. Captures the builtins it needs before the expression can replace them;
// whatever the expression does to them afterwards can only spoil the text of its own answer.
const HARNESS = String.raw`(function harness(code) {
  "use strict";
  const { keys, getPrototypeOf, is } = Object;
  const { isArray } = Array;
  const stringify = JSON.stringify;
  const ErrorType = Error, MapType = Map, SetType = Set, DateType = Date, RegExpType = RegExp, PromiseType = Promise;
  const toString = Function.prototype.toString;
  const apply = Reflect.apply;
  const MAX_TEXT = 10000, MAX_ITEMS = 50, MAX_DEPTH = 3;

  function describeError(error) {
    try {
      if (error instanceof ErrorType) return String(error.name) + ": " + String(error.message);
      return "Uncaught " + format(error, 0, []);
    } catch (_) {
      return "an exception that cannot be described";
    }
  }

  function format(value, depth, seen) {
    switch (typeof value) {
      case "string": return stringify(value);
      case "number": return is(value, -0) ? "-0" : String(value);
      case "bigint": return String(value) + "n";
      case "boolean": case "undefined": return String(value);
      case "symbol": return apply(Symbol.prototype.toString, value, []);
      case "function": {
        const source = apply(toString, value, []);
        const name = value.name ? " " + String(value.name) : " (anonymous)";
        return (/^class\b/.test(source) ? "[class" : "[Function") + name + "]";
      }
    }
    if (value === null) return "null";
    if (seen.includes(value)) return "[Circular]";
    if (value instanceof ErrorType) return "[" + describeError(value) + "]";
    if (value instanceof DateType) return apply(DateType.prototype.toISOString, value, []);
    if (value instanceof RegExpType) return String(value);
    if (value instanceof PromiseType) return "Promise { (not awaited) }";
    if (depth >= MAX_DEPTH) return isArray(value) ? "[Array]" : "[Object]";
    const inner = [...seen, value];
    const items = [];
    const more = (count) => (count > MAX_ITEMS ? ", ... " + (count - MAX_ITEMS) + " more" : "");
    if (isArray(value)) {
      for (let i = 0; i < value.length && i < MAX_ITEMS; i++) items.push(format(value[i], depth + 1, inner));
      return "[" + items.join(", ") + more(value.length) + "]";
    }
    if (value instanceof MapType) {
      for (const [k, v] of value) { if (items.length === MAX_ITEMS) break; items.push(format(k, depth + 1, inner) + " => " + format(v, depth + 1, inner)); }
      return "Map(" + value.size + ") {" + items.join(", ") + more(value.size) + "}";
    }
    if (value instanceof SetType) {
      for (const v of value) { if (items.length === MAX_ITEMS) break; items.push(format(v, depth + 1, inner)); }
      return "Set(" + value.size + ") {" + items.join(", ") + more(value.size) + "}";
    }
    const names = keys(value);
    for (const name of names.slice(0, MAX_ITEMS)) items.push((/^[A-Za-z_$][\w$]*$/.test(name) ? name : stringify(name)) + ": " + format(value[name], depth + 1, inner));
    const prototype = getPrototypeOf(value);
    const label = prototype === null ? "[Object: null prototype] " : prototype.constructor && prototype.constructor.name && prototype.constructor.name !== "Object" ? String(prototype.constructor.name) + " " : "";
    return label + "{" + (items.length ? " " + items.join(", ") + more(names.length) + " " : "") + "}";
  }

  let value;
  try {
    value = (0, eval)(code);
  } catch (error) {
    return "error:" + describeError(error);
  }
  try {
    const text = format(value, 0, []);
    return "ok:" + (text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) + " ... (" + (text.length - MAX_TEXT) + " more characters)" : text);
  } catch (error) {
    return "error:the value could not be shown: " + describeError(error);
  }
})`;

// A null prototype: with an ordinary object, `this.constructor.constructor("return process")()`
// reaches the host's Function through the global's prototype chain.
const context = vm.createContext(Object.create(null), {
  name: "evaluate",
  codeGeneration: { strings: true, wasm: false },
  // Promise jobs the expression queues run before runInContext returns, inside the time limit.
  microtaskMode: "afterEvaluate",
});

/** @returns {string} "ok:<text>", "error:<text>" or "timeout:" */
function run() {
  const script = new vm.Script(`${HARNESS}(${JSON.stringify(expression)})`, { filename: "evaluate" });
  try {
    const result = script.runInContext(context, { timeout: timeoutMs, breakOnSigint: false });
    return typeof result === "string" ? result : "error:the evaluation produced no text";
  } catch (error) {
    // The harness catches everything the expression throws, so what reaches here comes from Node
    // (the time limit) or from a harness that could not finish. Errors made by the context are
    // not host objects: read the code without calling anything that could run the expression's code.
    if (typeof error === "object" && error !== null && !types.isProxy(error)) {
      const code = Object.getOwnPropertyDescriptor(error, "code");
      if (code && "value" in code && code.value === "ERR_SCRIPT_EXECUTION_TIMEOUT") return "timeout:";
    }
    return "error:the evaluation failed before it could report (for example, the stack overflowed while handling an exception)";
  }
}

// A promise the expression rejected and never handled is its own business, not a crash.
process.on("unhandledRejection", () => {});

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
/** @type {{ expression: string, timeoutMs: number }} */
const { expression, timeoutMs } = JSON.parse(input);
process.stdout.write(`${JSON.stringify({ outcome: run() })}\n`);
