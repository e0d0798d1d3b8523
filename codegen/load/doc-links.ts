/**
 * Upstream's TSDoc links, repaired. schema.ts writes `{@link ListRootsRequest | roots/list}`;
 * its conversion to schema.json drops the ` | ` and leaves `{@link ListRootsRequestroots/list}`,
 * a link to nothing. A target that is not a definition but starts with one (and does not go on
 * with `.`, a TSDoc member reference such as `{@link Tool.outputSchema}`) is split back into the
 * definition and its text. The longest definition wins, so `ListResourcesRequest...` never
 * links to a shorter name it happens to start with.
 */
export function repairDocLinks(text: string, definitions: ReadonlySet<string>): string {
  if (!text.includes("{@link ")) return text;
  return text.replace(/\{@link ([^}|\s][^}|]*)\}/g, (link, target: string) => {
    if (definitions.has(target) || /^[a-z][a-z0-9+.-]*:/i.test(target)) return link;
    let name = "";
    for (const candidate of definitions)
      if (candidate.length > name.length && target.startsWith(candidate) && target.length > candidate.length) name = candidate;
    const rest = target.slice(name.length);
    if (name === "" || rest.startsWith(".")) return link;
    return `{@link ${name} | ${rest}}`;
  });
}
