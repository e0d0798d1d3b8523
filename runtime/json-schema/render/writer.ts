/**
 * What the renderers write source with: the few methods of code-block-writer they call, so that
 * the generator passes its CodeBlockWriter (printed files, formatted) and the runtime this small
 * one (source compiled at registration), with no dependency in the runtime.
 */
export interface Writer {
  write(text: string): Writer;
  writeLine(text: string): Writer;
  newLine(): Writer;
  blankLine(): Writer;
  /** `{`, the body indented, `}` and a new line. */
  block(body: () => void): Writer;
  /** The same, with no new line after `}`. */
  inlineBlock(body: () => void): Writer;
  indent(body: () => void): Writer;
}

/** A {@link Writer} into a string, indenting by two spaces. */
export class SourceWriter implements Writer {
  private text = "";
  private level = 0;
  private lineStart = true;

  write(text: string): this {
    if (text === "") return this;
    if (this.lineStart) this.text += "  ".repeat(this.level);
    this.text += text;
    this.lineStart = false;
    return this;
  }

  writeLine(text: string): this {
    if (!this.lineStart) this.newLine();
    return this.write(text).newLine();
  }

  newLine(): this {
    this.text += "\n";
    this.lineStart = true;
    return this;
  }

  blankLine(): this {
    if (!this.lineStart) this.newLine();
    return this.newLine();
  }

  block(body: () => void): this {
    return this.inlineBlock(body).newLine();
  }

  inlineBlock(body: () => void): this {
    this.write(this.lineStart || this.text.endsWith(" ") ? "{" : " {").newLine();
    this.indent(body);
    if (!this.lineStart) this.newLine();
    return this.write("}");
  }

  indent(body: () => void): this {
    this.level++;
    body();
    this.level--;
    return this;
  }

  toString(): string {
    return this.text;
  }
}
