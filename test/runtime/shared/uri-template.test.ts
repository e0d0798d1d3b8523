// UriTemplate.expand and .match, its inverse. The expansions are RFC 6570's own examples
// (section 3.2, every operator, with the section's variables): expand must give each one, and
// matching the string-valued ones must give back the values.
import { expect } from "chai";
import { UriTemplate, type ExpansionValue } from "../../../runtime/shared/uri-template.js";

/** RFC 6570 section 3.2's variables (undef is left out: undefined). */
const RFC_VALUES: Record<string, ExpansionValue> = {
  count: ["one", "two", "three"],
  dom: ["example", "com"],
  dub: "me/too",
  hello: "Hello World!",
  half: "50%",
  var: "value",
  who: "fred",
  base: "http://example.com/home/",
  path: "/foo/bar",
  list: ["red", "green", "blue"],
  keys: { semi: ";", dot: ".", comma: "," },
  v: "6",
  x: "1024",
  y: "768",
  empty: "",
  empty_keys: {},
};

/** RFC 6570 sections 3.2.1 to 3.2.9, every example, in order. */
const RFC_EXPANSIONS: [template: string, expansion: string][] = [
  // 3.2.1 Variable expansion
  ["{count}", "one,two,three"],
  ["{count*}", "one,two,three"],
  ["{/count}", "/one,two,three"],
  ["{/count*}", "/one/two/three"],
  ["{;count}", ";count=one,two,three"],
  ["{;count*}", ";count=one;count=two;count=three"],
  ["{?count}", "?count=one,two,three"],
  ["{?count*}", "?count=one&count=two&count=three"],
  ["{&count*}", "&count=one&count=two&count=three"],
  // 3.2.2 Simple string expansion
  ["{var}", "value"],
  ["{hello}", "Hello%20World%21"],
  ["{half}", "50%25"],
  ["O{empty}X", "OX"],
  ["O{undef}X", "OX"],
  ["{x,y}", "1024,768"],
  ["{x,hello,y}", "1024,Hello%20World%21,768"],
  ["?{x,empty}", "?1024,"],
  ["?{x,undef}", "?1024"],
  ["?{undef,y}", "?768"],
  ["{var:3}", "val"],
  ["{var:30}", "value"],
  ["{list}", "red,green,blue"],
  ["{list*}", "red,green,blue"],
  ["{keys}", "semi,%3B,dot,.,comma,%2C"],
  ["{keys*}", "semi=%3B,dot=.,comma=%2C"],
  // 3.2.3 Reserved expansion
  ["{+var}", "value"],
  ["{+hello}", "Hello%20World!"],
  ["{+half}", "50%25"],
  ["{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"],
  ["{+base}index", "http://example.com/home/index"],
  ["O{+empty}X", "OX"],
  ["O{+undef}X", "OX"],
  ["{+path}/here", "/foo/bar/here"],
  ["here?ref={+path}", "here?ref=/foo/bar"],
  ["up{+path}{var}/here", "up/foo/barvalue/here"],
  ["{+x,hello,y}", "1024,Hello%20World!,768"],
  ["{+path,x}/here", "/foo/bar,1024/here"],
  ["{+path:6}/here", "/foo/b/here"],
  ["{+list}", "red,green,blue"],
  ["{+list*}", "red,green,blue"],
  ["{+keys}", "semi,;,dot,.,comma,,"],
  ["{+keys*}", "semi=;,dot=.,comma=,"],
  // 3.2.4 Fragment expansion
  ["{#var}", "#value"],
  ["{#hello}", "#Hello%20World!"],
  ["{#half}", "#50%25"],
  ["foo{#empty}", "foo#"],
  ["foo{#undef}", "foo"],
  ["{#x,hello,y}", "#1024,Hello%20World!,768"],
  ["{#path,x}/here", "#/foo/bar,1024/here"],
  ["{#path:6}/here", "#/foo/b/here"],
  ["{#list}", "#red,green,blue"],
  ["{#list*}", "#red,green,blue"],
  ["{#keys}", "#semi,;,dot,.,comma,,"],
  ["{#keys*}", "#semi=;,dot=.,comma=,"],
  // 3.2.5 Label expansion with dot-prefix
  ["{.who}", ".fred"],
  ["{.who,who}", ".fred.fred"],
  ["{.half,who}", ".50%25.fred"],
  ["www{.dom*}", "www.example.com"],
  ["X{.var}", "X.value"],
  ["X{.empty}", "X."],
  ["X{.undef}", "X"],
  ["X{.var:3}", "X.val"],
  ["X{.list}", "X.red,green,blue"],
  ["X{.list*}", "X.red.green.blue"],
  ["X{.keys}", "X.semi,%3B,dot,.,comma,%2C"],
  ["X{.keys*}", "X.semi=%3B.dot=..comma=%2C"],
  ["X{.empty_keys}", "X"],
  ["X{.empty_keys*}", "X"],
  // 3.2.6 Path segment expansion
  ["{/who}", "/fred"],
  ["{/who,who}", "/fred/fred"],
  ["{/half,who}", "/50%25/fred"],
  ["{/who,dub}", "/fred/me%2Ftoo"],
  ["{/var}", "/value"],
  ["{/var,empty}", "/value/"],
  ["{/var,undef}", "/value"],
  ["{/var,x}/here", "/value/1024/here"],
  ["{/var:1,var}", "/v/value"],
  ["{/list}", "/red,green,blue"],
  ["{/list*}", "/red/green/blue"],
  ["{/list*,path:4}", "/red/green/blue/%2Ffoo"],
  ["{/keys}", "/semi,%3B,dot,.,comma,%2C"],
  ["{/keys*}", "/semi=%3B/dot=./comma=%2C"],
  // 3.2.7 Path-style parameter expansion
  ["{;who}", ";who=fred"],
  ["{;half}", ";half=50%25"],
  ["{;empty}", ";empty"],
  ["{;v,empty,who}", ";v=6;empty;who=fred"],
  ["{;v,bar,who}", ";v=6;who=fred"],
  ["{;x,y}", ";x=1024;y=768"],
  ["{;x,y,empty}", ";x=1024;y=768;empty"],
  ["{;x,y,undef}", ";x=1024;y=768"],
  ["{;hello:5}", ";hello=Hello"],
  ["{;list}", ";list=red,green,blue"],
  ["{;list*}", ";list=red;list=green;list=blue"],
  ["{;keys}", ";keys=semi,%3B,dot,.,comma,%2C"],
  ["{;keys*}", ";semi=%3B;dot=.;comma=%2C"],
  // 3.2.8 Form-style query expansion
  ["{?who}", "?who=fred"],
  ["{?half}", "?half=50%25"],
  ["{?x,y}", "?x=1024&y=768"],
  ["{?x,y,empty}", "?x=1024&y=768&empty="],
  ["{?x,y,undef}", "?x=1024&y=768"],
  ["{?var:3}", "?var=val"],
  ["{?list}", "?list=red,green,blue"],
  ["{?list*}", "?list=red&list=green&list=blue"],
  ["{?keys}", "?keys=semi,%3B,dot,.,comma,%2C"],
  ["{?keys*}", "?semi=%3B&dot=.&comma=%2C"],
  // 3.2.9 Form-style query continuation
  ["{&who}", "&who=fred"],
  ["{&half}", "&half=50%25"],
  ["?fixed=yes{&x}", "?fixed=yes&x=1024"],
  ["{&x,y,empty}", "&x=1024&y=768&empty="],
  ["{&var:3}", "&var=val"],
  ["{&list}", "&list=red,green,blue"],
  ["{&list*}", "&list=red&list=green&list=blue"],
  ["{&keys}", "&keys=semi,%3B,dot,.,comma,%2C"],
  ["{&keys*}", "&semi=%3B&dot=.&comma=%2C"],
];

const MATCHES: [template: string, uri: string, values: Record<string, string | string[]>][] = [
  // Level 1-2: simple and reserved strings, fragments.
  ["{var}", "value", { var: "value" }],
  ["{hello}", "Hello%20World%21", { hello: "Hello World!" }],
  ["{+var}", "value", { var: "value" }],
  ["{+path}/here", "/foo/bar/here", { path: "/foo/bar" }],
  ["here?ref={+path}", "here?ref=/foo/bar", { path: "/foo/bar" }],
  ["X{#var}", "X#value", { var: "value" }],
  ["X{#hello}", "X#Hello%20World!", { hello: "Hello World!" }],
  // Level 3: several variables, every operator.
  ["map?{x,y}", "map?1024,768", { x: "1024", y: "768" }],
  ["{x,hello,y}", "1024,Hello%20World%21,768", { x: "1024", hello: "Hello World!", y: "768" }],
  ["{+x,hello,y}", "1024,Hello%20World!,768", { x: "1024", hello: "Hello World!", y: "768" }],
  ["X{.var}", "X.value", { var: "value" }],
  ["X{.x,y}", "X.1024.768", { x: "1024", y: "768" }],
  ["{/var}", "/value", { var: "value" }],
  ["{/var,x}/here", "/value/1024/here", { var: "value", x: "1024" }],
  ["{;x,y}", ";x=1024;y=768", { x: "1024", y: "768" }],
  ["{?x,y}", "?x=1024&y=768", { x: "1024", y: "768" }],
  ["?fixed=yes{&x}", "?fixed=yes&x=1024", { x: "1024" }],
  // Level 4: prefixes and explode.
  ["{var:3}", "val", { var: "val" }],
  ["{/list*}", "/red/green/blue", { list: ["red", "green", "blue"] }],
  ["{list*}", "red,green,blue", { list: ["red", "green", "blue"] }],
  ["X{.list*}", "X.red.green.blue", { list: ["red", "green", "blue"] }],
  // Optional query parameters may be absent, some or all.
  ["/search{?q,lang}", "/search", {}],
  ["/search{?q,lang}", "/search?q=cat", { q: "cat" }],
  ["/search{?q,lang}", "/search?lang=fr&q=chat", { q: "chat", lang: "fr" }],
  // The shapes MCP servers use.
  ["file:///{+path}", "file:///home/user/notes.txt", { path: "home/user/notes.txt" }],
  ["users://{id}/profile", "users://42/profile", { id: "42" }],
  ["repo://{owner}/{repo}{/path*}", "repo://acme/rocket/src/main.rs", { owner: "acme", repo: "rocket", path: ["src", "main.rs"] }],
  ["db://{table}/rows{?limit,offset}", "db://users/rows?limit=10", { table: "users", limit: "10" }],
  ["weather://{city}", "weather://S%C3%A3o%20Paulo", { city: "São Paulo" }],
];

const MISMATCHES: [template: string, uri: string][] = [
  ["users://{id}", "users://1/2"], // a simple string never spans a "/"
  ["users://{id}", "users://"], // nor is it empty
  ["users://{id}/profile", "users://42/settings"],
  ["a.b/{x}", "aXb/1"], // literal characters are literal, "." included
  ["a+b/{x}", "aab/1"],
  ["(x)/{y}", "x/1"],
  ["file:///{+path}", "http://host/file"],
  ["{id}", "%ZZ"], // malformed percent-encoding expands from nothing
  ["{id}", "a?b"],
  ["{id}", "a#b"],
  ["prefix-{id}", "other-1"],
];

describe("UriTemplate", () => {
  it("expands every example of RFC 6570 section 3.2", () => {
    for (const [template, expansion] of RFC_EXPANSIONS) expect(new UriTemplate(template).expand(RFC_VALUES), template).to.equal(expansion);
  });

  it("matches what it expands, giving back the values", () => {
    for (const [template, , values] of MATCHES) {
      const parsed = new UriTemplate(template);
      expect(parsed.match(parsed.expand(values)), template).to.deep.equal(values);
    }
  });

  it("expands non-ASCII as UTF-8, keeps pct-encoded triplets in reserved expansion, and reads no inherited names", () => {
    expect(new UriTemplate("weather://{city}").expand({ city: "São Paulo" })).to.equal("weather://S%C3%A3o%20Paulo");
    expect(new UriTemplate("{+path}").expand({ path: "a%20b%zz" })).to.equal("a%20b%25zz");
    expect(new UriTemplate("{x:2}").expand({ x: "😀😀😀" })).to.equal("%F0%9F%98%80%F0%9F%98%80");
    expect(new UriTemplate("x{?constructor}").expand({})).to.equal("x");
  });

  for (const [template, uri, values] of MATCHES)
    it(`${template} matches ${uri}`, () => {
      expect(new UriTemplate(template).match(uri)).to.deep.equal(values);
    });

  for (const [template, uri] of MISMATCHES)
    it(`${template} does not match ${uri}`, () => {
      expect(new UriTemplate(template).match(uri)).to.equal(undefined);
    });

  it("lists its variables in order, without modifiers", () => {
    expect(new UriTemplate("repo://{owner}/{repo}{/path*}{?ref,depth:2}").variables).to.deep.equal(["owner", "repo", "path", "ref", "depth"]);
    expect(new UriTemplate("static://no/variables").variables).to.deep.equal([]);
  });

  it("a template without variables matches only itself", () => {
    const template = new UriTemplate("static://a.b?c=d");
    expect(template.match("static://a.b?c=d")).to.deep.equal({});
    expect(template.match("static://aXb?c=d")).to.equal(undefined);
  });

  it("refuses malformed templates", () => {
    for (const template of ["{", "a}", "{a", "x{a}}", "{a b}", "{}", "{a,}", "{-a}", "{a!}"])
      expect(() => new UriTemplate(template), template).to.throw(/invalid URI template/);
  });

  it("does not take prototype names for variables it lacks", () => {
    const values = new UriTemplate("{?a}").match("?constructor=1&__proto__=2&a=3");
    expect(values).to.deep.equal({ a: "3" });
    expect(Object.getPrototypeOf(values)).to.equal(Object.prototype);
  });
  it("variableShapes says what match gives: a variable it may leave out is not `always`, one it may give as a list is `list`", () => {
    const templates = ["x://{a}", "x://{+a}/b", "x://{a,b}", "x://{id}{?tag,limit}", "x://{id}{&tag}", "x://r{/path*}", "x://r{/seg}", "x://f{.ext}", "x://m{;p}", "x://h{#frag}", "x://{list*}"];
    const choices: ExpansionValue[] = [undefined, "v", ["p", "q"]];
    for (const text of templates) {
      const template = new UriTemplate(text);
      const shapes = template.variableShapes();
      expect(shapes.map((s) => s.name), text).to.deep.equal(template.variables);
      const seen = new Map(shapes.map((s) => [s.name, { absent: false, list: false }]));
      // Every combination of values for the variables: what match reads back from each expansion.
      const combos = template.variables.reduce<Record<string, ExpansionValue>[]>((acc, name) => acc.flatMap((values) => choices.map((c) => ({ ...values, [name]: c }))), [{}]);
      for (const values of combos) {
        const matched = template.match(template.expand(values));
        if (matched === undefined) continue;
        for (const shape of shapes) {
          const value = matched[shape.name];
          if (value === undefined) seen.get(shape.name)!.absent = true;
          else if (Array.isArray(value)) seen.get(shape.name)!.list = true;
        }
      }
      for (const shape of shapes) {
        // Claims that hold for every URI: an `always` variable is never left out, a non-list one never a list.
        expect(seen.get(shape.name)!.absent && shape.always, `${text} ${shape.name} left out`).to.equal(false);
        expect(seen.get(shape.name)!.list && !shape.list, `${text} ${shape.name} a list`).to.equal(false);
        // And no claim is looser than it has to be: an optional variable is left out by some URI.
        if (!shape.always) expect(seen.get(shape.name)!.absent, `${text} ${shape.name} optional`).to.equal(true);
      }
    }
    expect(new UriTemplate("x://{id}{?tag}").variableShapes()).to.deep.equal([
      { name: "id", always: true, list: false },
      { name: "tag", always: false, list: true },
    ]);
  });
});
