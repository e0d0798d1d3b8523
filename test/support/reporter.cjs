// mocha's spec reporter, closed by plain lines that any CI log reader understands: a line per failed
// test (its title and the first line of its error), then the totals. A log shown only by its tail
// still names what failed.
const Mocha = require("mocha");

const path = require("node:path");

const oneLine = (text, max) => {
  const line = String(text).split("\n").find((part) => part.trim() !== "") ?? "";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

class SpecWithTotals extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const failed = [];
    runner.on(Mocha.Runner.constants.EVENT_TEST_FAIL, (test, error) => {
      const where = test.file ? `${path.relative(process.cwd(), test.file)}: ` : "";
      failed.push(`failed: ${where}${oneLine(test.title, 120)}: ${oneLine(error?.message ?? error, 160)}`);
    });
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const { passes, failures, pending } = runner.stats;
      for (const line of failed) console.log(line);
      console.log(`mocha: ${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ""}`);
    });
  }
}

module.exports = SpecWithTotals;
