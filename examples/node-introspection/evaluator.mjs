// The evaluate tool's evaluator: one short-lived Node.js process per evaluation, started by
// evaluate.ts under Node's permission model. Plain JavaScript so that it starts without a
// TypeScript loader.
//
// Input on stdin: {"expression": "...", "timeoutMs": N, "memoryMb": N}. Output on fd 3 (not
// stdout): {"ready": true} once QuickJS is loaded and the time limit starts, then
// {"outcome": "ok:<text>" | "error:<text>" | "timeout:" | "memory:"}, one JSON line each.
//
// The expression runs in QuickJS compiled to WebAssembly (quickjs-emscripten), not in V8: a
// separate JavaScript engine whose whole heap is the WebAssembly instance's memory. Nothing of
// this process is handed to it: no function, no object, no module loader. Every object the code
// can reach, errors included, was made by QuickJS, so there is no host `Function` to climb to and
// no `process` behind it. What comes out is a string, copied out of WebAssembly memory; reading it
// runs none of the code's functions. See the README for the whole model.
import { writeSync } from "node:fs";
import { newQuickJSWASMModuleFromVariant } from "quickjs-emscripten-core";
import variant from "@jitl/quickjs-wasmfile-release-sync";

/** The fd evaluate.ts reads the answer from: the code has no way to write to any descriptor. */
const ANSWER_FD = 3;

// Runs inside QuickJS. Returns a function that formats the value once the promise jobs the code
// queued have run, so that a settled promise shows its value. Captures the builtins it needs
// before the code can replace them; whatever the code does to them afterwards can only spoil the
// text of its own answer.
const HARNESS = String.raw`(function harness(code) {
  "use strict";
  const { keys, getPrototypeOf, is } = Object;
  const { isArray } = Array;
  const stringify = JSON.stringify;
  const ErrorType = Error, MapType = Map, SetType = Set, DateType = Date, RegExpType = RegExp, PromiseType = Promise;
  const toString = Function.prototype.toString;
  const then = Promise.prototype.then;
  const apply = Reflect.apply;
  const MAX_TEXT = 10000, MAX_ITEMS = 50, MAX_DEPTH = 3;
  const settled = new WeakMap();

  function describeError(error) {
    try {
      if (error instanceof ErrorType) return String(error.name) + ": " + String(error.message);
      return "Uncaught " + format(error, 0, []);
    } catch (_) {
      return "an exception that cannot be described";
    }
  }

  function watch(promise) {
    apply(then, promise, [(value) => settled.set(promise, { value }), (reason) => settled.set(promise, { reason })]);
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
    if (value instanceof PromiseType) {
      const state = settled.get(value);
      if (!state) return "Promise { <pending> }";
      return "reason" in state ? "Promise { <rejected> " + describeError(state.reason) + " }" : "Promise { " + format(state.value, depth + 1, [...seen, value]) + " }";
    }
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
    if (value instanceof PromiseType) watch(value);
  } catch (error) {
    const failed = "error:" + describeError(error);
    return () => failed;
  }
  return () => {
    try {
      const text = format(value, 0, []);
      return "ok:" + (text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) + " ... (" + (text.length - MAX_TEXT) + " more characters)" : text);
    } catch (error) {
      return "error:the value could not be shown: " + describeError(error);
    }
  };
})`;

/** QuickJS reports its limits as errors made inside it: read their text without running any of the code's functions. */
function limitHit(context, handle) {
  const message = context.getProp(handle, "message");
  const text = context.typeof(message) === "string" ? context.getString(message) : "";
  message.dispose();
  if (text === "interrupted") return "timeout:";
  if (text === "out of memory") return "memory:";
  if (/stack overflow/.test(text)) return "error:InternalError: stack overflow";
  return undefined;
}

/** @returns {string} "ok:<text>", "error:<text>", "timeout:" or "memory:" */
function run(quickjs, expression, timeoutMs, memoryMb) {
  const deadline = Date.now() + timeoutMs;
  let interrupted = false;
  const runtime = quickjs.newRuntime({
    memoryLimitBytes: memoryMb * 1024 * 1024,
    // Below the host's own stack limit, so that deep recursion is QuickJS's InternalError, not V8's.
    maxStackSizeBytes: 256 * 1024,
    // QuickJS asks this every few thousand instructions. Remembered: an interrupt inside a promise
    // job only rejects that job's promise, it is not reported by executePendingJobs.
    interruptHandler: () => (interrupted ||= Date.now() >= deadline),
  });
  const context = runtime.newContext();
  // Nothing is disposed: the process ends with this one evaluation.
  {
    const source = `${HARNESS}(${JSON.stringify(expression)})`;
    const evaluated = context.evalCode(source, "evaluate");
    if (evaluated.error) {
      const outcome = limitHit(context, evaluated.error) ?? "error:the evaluation failed before it could report";
      evaluated.error.dispose();
      return outcome;
    }
    // Promise jobs the code queued run now, under the same deadline and memory limit. A job that
    // throws is the code's own business (its promise rejects); a limit ends the evaluation.
    while (runtime.hasPendingJob()) {
      if (Date.now() >= deadline) return "timeout:";
      const jobs = runtime.executePendingJobs();
      if (jobs.error) {
        const outcome = limitHit(context, jobs.error);
        jobs.error.dispose();
        if (outcome) return outcome;
      } else jobs.dispose();
    }
    if (interrupted) return "timeout:";
    const shown = context.callFunction(evaluated.value, context.undefined);
    evaluated.value.dispose();
    if (shown.error) {
      const outcome = limitHit(context, shown.error) ?? "error:the value could not be shown";
      shown.error.dispose();
      return outcome;
    }
    const outcome = context.typeof(shown.value) === "string" ? context.getString(shown.value) : "error:the evaluation produced no text";
    shown.value.dispose();
    return outcome;
  }
}

let input = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) input += chunk;
/** @type {{ expression: string, timeoutMs: number, memoryMb: number }} */
const { expression, timeoutMs, memoryMb } = JSON.parse(input);
const quickjs = await newQuickJSWASMModuleFromVariant(variant);
// WebAssembly functions are compiled on first call: a throwaway run compiles those the harness
// uses, so that the time limit measures the code, not the compiler on a busy machine. The real
// run gets a runtime of its own, which shares no object with this one.
run(quickjs, "0", 60_000, 8);
writeSync(ANSWER_FD, `${JSON.stringify({ ready: true })}\n`);
let outcome;
try {
  outcome = run(quickjs, expression, timeoutMs, memoryMb);
  // The harness reports errors the code may catch, out of memory among them, as text.
  if (outcome === "error:InternalError: out of memory") outcome = "memory:";
} catch (error) {
  // Thrown by the host around QuickJS (e.g. WebAssembly's own stack or memory ran out).
  outcome = error instanceof RangeError ? "error:InternalError: stack overflow" : "error:the evaluation failed before it could report";
}
writeSync(ANSWER_FD, `${JSON.stringify({ outcome })}\n`);
