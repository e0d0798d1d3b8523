/** What is wrong with a value, as both modes of the compiler (compile.ts, code.ts) say it. */
export interface SchemaIssue {
  /** JSON Pointer into the value; "" is the value itself. */
  readonly path: string;
  /** Where the failed keyword is: a JSON Pointer fragment into the schema document (`#/properties/a/type`). */
  readonly schemaPath: string;
  readonly keyword: string;
  readonly message: string;
}
