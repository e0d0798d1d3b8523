import { expect } from "chai";
import { SseParser, type SseEvent } from "../../../../runtime/transports/http/sse-parser.js";
import { sseEvent, ssePriming } from "../../../../runtime/transports/http/sse.js";

function parse(chunks: string[]): { events: SseEvent[]; retries: number[] } {
  const events: SseEvent[] = [];
  const retries: number[] = [];
  const parser = new SseParser((e) => events.push(e), (ms) => retries.push(ms));
  for (const chunk of chunks) parser.push(chunk);
  return { events, retries };
}

describe("transports/http/sse-parser", () => {
  it("reads what sse.ts writes, priming event and retry included", () => {
    const text = ssePriming("s_0", 500) + sseEvent('{"a":1}', "s_1") + sseEvent('{"b":2}');
    const { events, retries } = parse([text]);
    expect(retries).to.deep.equal([500]);
    expect(events).to.deep.equal([
      { id: "s_0", event: "message", data: "" },
      { id: "s_1", event: "message", data: '{"a":1}' },
      { id: undefined, event: "message", data: '{"b":2}' },
    ]);
  });

  it("gives the same events however the text is cut, with LF, CRLF or CR line ends", () => {
    const text = "id: 1\r\ndata: one\r\n\r\n: comment\rdata: two\rdata: lines\r\revent: custom\ndata:three\n\n";
    const whole = parse([text]).events;
    expect(whole).to.deep.equal([
      { id: "1", event: "message", data: "one" },
      { id: undefined, event: "message", data: "two\nlines" },
      { id: undefined, event: "custom", data: "three" },
    ]);
    for (let cut = 1; cut < text.length; cut++) expect(parse([text.slice(0, cut), text.slice(cut)]).events, `cut at ${cut}`).to.deep.equal(whole);
    expect(parse(text.split("")).events).to.deep.equal(whole);
  });

  it("drops an event that has no blank line before the end", () => {
    const parser = new SseParser(() => expect.fail("no event expected"));
    parser.push("data: half");
    parser.end();
  });

  it("an event past its limit, in data lines or in a line that never ends, is not kept: overflowed, and nothing more is read", () => {
    const events: SseEvent[] = [];
    const lines = new SseParser((e) => events.push(e), undefined, 1_000);
    for (let k = 0; k < 100 && !lines.overflowed; k++) lines.push(`data: ${"y".repeat(100)}\n`);
    expect(lines.overflowed).to.equal(true);
    lines.push("\n");
    expect(events).to.deep.equal([]);
    const endless = new SseParser((e) => events.push(e), undefined, 1_000);
    endless.push("data: ");
    for (let k = 0; k < 100 && !endless.overflowed; k++) endless.push("x".repeat(100));
    expect(endless.overflowed).to.equal(true);
    // Under the limit, the same stream parses as before.
    const fine = new SseParser((e) => events.push(e), undefined, 1_000);
    fine.push(`data: ${"z".repeat(500)}\n\n`);
    expect(fine.overflowed).to.equal(false);
    expect(events).to.deep.equal([{ id: undefined, event: "message", data: "z".repeat(500) }]);
  });
});
