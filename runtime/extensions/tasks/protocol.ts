/** The tasks extension's id (2026-07-28): what a client declares to have tools/call answered with a task. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** Whether a request's client capabilities declare the tasks extension (2026-07-28, per request). */
export function declaresTasksExtension(capabilities: Readonly<Record<string, unknown>>): boolean {
  const extensions = capabilities.extensions;
  return typeof extensions === "object" && extensions !== null && (extensions as Record<string, unknown>)[TASKS_EXTENSION] !== undefined;
}
