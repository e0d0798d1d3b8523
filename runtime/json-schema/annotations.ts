/**
 * What the keywords of a schema evaluated in a value (2020-12 core section 11.2): the property
 * names, the count of leading items and the indices of others (`contains`), each `true` once all
 * are. Read by `unevaluatedProperties` and `unevaluatedItems`; filled by the closures
 * (compile.ts) and by the generated code (code/), which share this record.
 */
export interface Evaluated {
  props: Set<string> | true;
  items: number;
  itemSet: Set<number> | true;
}

export const fresh = (): Evaluated => ({ props: new Set(), items: 0, itemSet: new Set() });

export function merge(into: Evaluated, from: Evaluated): void {
  if (into.props !== true) into.props = from.props === true ? true : (from.props.forEach((p) => (into.props as Set<string>).add(p)), into.props);
  into.items = Math.max(into.items, from.items);
  if (into.itemSet !== true) into.itemSet = from.itemSet === true ? true : (from.itemSet.forEach((i) => (into.itemSet as Set<number>).add(i)), into.itemSet);
}
