// The SKILL.md frontmatter reader: YAML read by the yaml package with the 1.2 core schema, and what
// it refuses, with the line in the whole file. (test/interop/skills.test.ts checks it against SDK
// v2's reader.)
import { expect } from "chai";
import { FrontmatterError, parseFrontmatter, sameYaml } from "../../../../runtime/extensions/skills/frontmatter.js";

const doc = (yaml: string, body = "Body.\n") => `---\n${yaml}\n---\n${body}`;

describe("parseFrontmatter", () => {
  it("reads scalars by the core schema, quoted strings, nested maps, sequences and block scalars", () => {
    const { fields, body } = parseFrontmatter(
      doc(
        [
          "name: pdf-processing # a comment",
          "description: 'It''s: quoted'",
          'title: "tab\\there \\u00e9"',
          "count: 42",
          "ratio: 2.5",
          "version: 2.1.0",
          "on: true",
          "off: False",
          "nothing: ~",
          "empty:",
          "tags: [a, 'b c', 3]",
          "# a comment line",
          "metadata:",
          "  author: acme",
          "  nested:",
          "    deep: yes",
          "list:",
          "  - one",
          "  - 2",
          "same-indent:",
          "- x",
          "literal: |",
          "  line one",
          "    indented",
          "",
          "  # not a comment",
          "folded: >-",
          "  folded",
          "  text",
        ].join("\n"),
      ),
    );
    expect(fields).to.deep.equal({
      name: "pdf-processing",
      description: "It's: quoted",
      title: "tab\there é",
      count: 42,
      ratio: 2.5,
      version: "2.1.0",
      on: true,
      off: false,
      nothing: null,
      empty: null,
      tags: ["a", "b c", 3],
      metadata: { author: "acme", nested: { deep: "yes" } },
      list: ["one", 2],
      "same-indent": ["x"],
      literal: "line one\n  indented\n\n# not a comment\n",
      folded: "folded text",
    });
    expect(body).to.equal("Body.\n");
  });

  it("reads what YAML allows beyond the old subset: flow mappings, mappings inside sequences; an empty block is an empty mapping", () => {
    expect(parseFrontmatter(doc("meta: {a: 1, b: [x]}\nlist:\n  - a: 1\n    b: two")).fields).to.deep.equal({ meta: { a: 1, b: ["x"] }, list: [{ a: 1, b: "two" }] });
    expect(parseFrontmatter("---\n---\nbody").fields).to.deep.equal({});
  });

  it("accepts a BOM and CRLF line ends", () => {
    expect(parseFrontmatter("\ufeff---\r\nname: a\r\ndescription: b\r\n---\r\nx").fields).to.deep.equal({ name: "a", description: "b" });
  });

  const refused: [string, string, RegExp][] = [
    ["no frontmatter", "# Title\n", /does not begin with a --- delimited/],
    ["an unclosed block", "---\nname: a\n", /does not begin with a --- delimited/],
    ["a line that is not key: value", doc("name: a\njust text"), /^line 3: Implicit map keys need to be followed by map values/],
    ["a duplicate key", doc("name: a\nname: b"), /^line 3: Map keys must be unique/],
    ["an anchor", doc("name: a\ntitle: &x a"), /^line 3: anchors, aliases and tags are not supported/],
    ["an alias", doc("name: a\ntitle: *x"), /^line 3: anchors, aliases and tags are not supported/],
    ["a tag", doc("count: !!str 1"), /^line 2: anchors, aliases and tags are not supported/],
    ["an unterminated string", doc('name: "a'), /^line 2: Missing closing "quote/],
    ["a plain value with \": \"", doc("description: Use it: often"), /^line 2: Nested mappings are not allowed in compact mappings/],
    ["stray indentation", doc("name: a\n    b: c"), /^line 2: Nested mappings are not allowed/],
    ["a frontmatter that is not a mapping", doc("- a\n- b"), /^line 2: the frontmatter is not a mapping/],
  ];
  for (const [what, text, message] of refused)
    it(`refuses ${what}, naming the line`, () => {
      expect(() => parseFrontmatter(text))
        .to.throw(FrontmatterError)
        .with.property("message")
        .that.matches(message);
    });

  it("sameYaml compares deeply, key order aside", () => {
    expect(sameYaml({ a: [1, { b: "c" }], d: null }, { d: null, a: [1, { b: "c" }] })).to.equal(true);
    expect(sameYaml({ a: 1 }, { a: "1" })).to.equal(false);
    expect(sameYaml({ a: 1 }, { a: 1, b: undefined })).to.equal(false);
    expect(sameYaml([1], { 0: 1 })).to.equal(false);
  });
});
