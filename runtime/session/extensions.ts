import type { ExtensionModule, MethodDescriptor, Validator } from "../contract.js";
import type { Validating } from "./validate.js";

/**
 * What the runtime reads of an {@link ExtensionModule} (SEP-2133): its tables as Maps, because
 * method and definition names come off the wire, and a validator lookup that names what is
 * missing. `revision` is the extension's identifier, so that errors name the extension.
 */
export interface LoadedExtension extends Validating {
  readonly id: string;
  readonly module: ExtensionModule;
  readonly methods: ReadonlyMap<string, MethodDescriptor>;
}

const views = new WeakMap<ExtensionModule, LoadedExtension>();

export function loadExtension(module: ExtensionModule): LoadedExtension {
  let view = views.get(module);
  if (view) return view;
  if (typeof module.extension !== "string" || module.extension === "") throw new Error("an extension module needs its identifier (`extension`)");
  const validators = new Map<string, Validator>(Object.entries(module.validators));
  view = {
    id: module.extension,
    revision: module.extension,
    module,
    methods: new Map(Object.entries(module.methods)),
    validator(definition) {
      const found = validators.get(definition);
      if (!found) throw new Error(`the extension ${module.extension} has no definition ${definition}`);
      return found;
    },
  };
  views.set(module, view);
  return view;
}

/** The settings a capabilities object declares for an extension (`capabilities.extensions[id]`), or undefined. */
export function declaredExtension(capabilities: Readonly<Record<string, unknown>> | undefined, id: string): Record<string, unknown> | undefined {
  const extensions = capabilities?.extensions;
  if (typeof extensions !== "object" || extensions === null || !Object.prototype.hasOwnProperty.call(extensions, id)) return undefined;
  const settings = (extensions as Record<string, unknown>)[id];
  return typeof settings === "object" && settings !== null && !Array.isArray(settings) ? (settings as Record<string, unknown>) : undefined;
}
