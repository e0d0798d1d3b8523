// UriTemplate.match, the inverse of RFC 6570 expansion. The expansions are RFC 6570's own
// examples (section 3.2, with var = "value", hello = "Hello World!", path = "/foo/bar",
// list = [red, green, blue], x = 1024, y = 768): matching each must give back the values.
import { expect } from "chai";
import { UriTemplate } from "../../../runtime/server/uri-template.js";

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
});
