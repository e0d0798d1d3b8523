// docs/benchmarks.md is bench/report.ts's rendering of the committed results file
// (bench/results/release.json: one run of bench/run.ts, with benches merged in from later runs):
// regenerated here, it must come out the same, so that no figure on the page lacks its run, and
// every recorded figure is on the page; the README's front-door figures likewise.
import { expect } from "chai";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../support/project.js";
import { frontDoor, merge, PAGE, README, RELEASE, render, withFrontDoor, type Results } from "../../bench/report.js";

describe("bench/report: the benchmarks page", () => {
  const results = JSON.parse(readFileSync(RELEASE, "utf8")) as Results;
  const page = readFileSync(PAGE, "utf8");

  it("is what bench/report.ts makes of bench/results/release.json (run `node --import tsx bench/report.ts` after changing either)", () => {
    expect(page).to.equal(render(results));
  });

  it("shows every recorded figure, each median with its run's spread, and peers from the same run", () => {
    expect(results.figures.length, "the release run recorded figures").to.be.greaterThan(0);
    for (const figure of results.figures) {
      const sorted = [...figure.runs].sort((a, b) => a - b);
      expect(figure.median, `${figure.bench}, ${figure.measure}, ${figure.contender}: the median of its runs`).to.be.within(sorted[0]!, sorted.at(-1)!);
    }
    const rows = page.split("\n").filter((line) => line.startsWith("| ") && !line.startsWith("| measure"));
    // A row: "| measure | figure or - | ... | ratio | ... |"; ratios end in "x".
    const cells = rows.flatMap((row) => row.slice(2, -2).split(" | ").slice(1)).filter((cell) => cell !== "-" && !/^\d+\.\d+x$/.test(cell));
    expect(cells.length, "one cell per recorded figure").to.equal(results.figures.length);
    const benches = new Set(results.figures.map((figure) => figure.bench));
    for (const bench of benches) expect(page).to.include(`## ${bench}\n`);
    // A bench that compares ours with peers recorded the peers in the same run (the same file).
    for (const bench of benches) {
      const contenders = new Set(results.figures.filter((f) => f.bench === bench).map((f) => f.contender));
      if (contenders.has("ours")) expect([...contenders].some((c) => c !== "ours"), `${bench}: peers or a floor beside ours`).to.equal(true);
    }
  });

  it("the README's figures are what bench/report.ts makes of bench/results/release.json", () => {
    const readme = readFileSync(README, "utf8");
    expect(readme).to.equal(withFrontDoor(readme, results));
    expect(frontDoor(results).length, "the release run has figures for the README").to.be.greaterThan(0);
    // Each line links to the section of the page its figures come from.
    for (const line of frontDoor(results)) {
      const [, section] = /\(docs\/benchmarks\.md#([\w-]+)\)\)[.;]$/.exec(line) ?? [];
      expect(section, line).to.be.a("string");
      expect(page, line).to.include(`## ${section}\n`);
    }
  });

  it("every bench in bench/ records its figures, and each that finished in the release run has its section", () => {
    // bench/run.ts runs every bench/*.ts but itself and report.ts.
    const benches = readdirSync(join(ROOT, "bench")).filter((name) => name.endsWith(".ts") && !["run.ts", "report.ts"].includes(name));
    for (const file of benches) expect(readFileSync(join(ROOT, "bench", file), "utf8"), `bench/${file} records its figures`).to.match(/import \{ record \} from "\.\/support\/results\.js";[^]*\brecord\(\{/);
    for (const { name } of results.benches.filter((b) => b.status === "ok"))
      expect(results.figures.some((f) => f.bench === name) && page.includes(`## ${name}\n`), `${name}: figures and a section`).to.equal(true);
  });

  it("--merge puts a later run's benches in place of theirs and leaves every other bench's figures as they were", () => {
    const [first, second] = [...new Set(results.figures.map((f) => f.bench))] as [string, string];
    // A later run of `first` alone, every figure doubled, and of a bench the release run did not have.
    const later: Results = {
      ...results,
      date: "2099-01-02",
      commit: "f".repeat(40),
      benches: [
        { name: first, seconds: 7, status: "ok" },
        { name: "zz-new", seconds: 1, status: "ok" },
      ],
      figures: [
        ...results.figures.filter((f) => f.bench === first).map((f) => ({ ...f, median: f.median * 2, runs: f.runs.map((r) => r * 2) })),
        { bench: "zz-new", measure: "m", contender: "ours", unit: "ms", median: 1, runs: [1] },
      ],
    };
    const merged = merge(results, later);
    expect(merged.figures.filter((f) => f.bench !== first && f.bench !== "zz-new")).to.deep.equal(results.figures.filter((f) => f.bench !== first));
    expect(merged.figures.filter((f) => f.bench === first)).to.deep.equal(later.figures.filter((f) => f.bench === first));
    expect(merged.benches.find((b) => b.name === second)).to.deep.equal(results.benches.find((b) => b.name === second));
    expect(merged.benches.find((b) => b.name === first)?.run?.commit).to.equal(later.commit);
    expect(merged.benches.map((b) => b.name)).to.include("zz-new");
    expect(merge(merged, later), "merging the same run again changes nothing").to.deep.equal(merged);
    // The page names the later run, in the header and in the bench's section; the first section stays where it was.
    const page = render(merged);
    expect(page).to.include(`${first}: from a later run of its own, bench/run.ts${results.quick ? " --quick" : ""} at commit ffffffffffff, 2099-01-02`);
    expect(page).to.match(new RegExp(`\\n## ${first}\\n[^#]*: ok, 7 s, in a later run \\(bench/run\\.ts`));
    expect(page.indexOf(`## ${first}\n`)).to.be.lessThan(page.indexOf(`## ${second}\n`));
  });
});
