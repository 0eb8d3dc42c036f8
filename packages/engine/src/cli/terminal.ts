/**
 * Text from a store made safe to print on a terminal. Stored text is caller data: an escape
 * sequence in it would be run by the terminal (retitle the window, clear the screen, write an
 * OSC 8 hyperlink whose target differs from its text).
 */

/**
 * ESC sequences and C1 controls with the string they carry: OSC, DCS, SOS, PM and APC run to
 * their terminator (BEL or ST) or to the end of the text; CSI runs to its final byte; any other
 * ESC takes the one character after it.
 */
const SEQUENCE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[\s\S]*?(?:\x07|\x1b\\|\x9c|$)|(?:\x1b\[|\x9b)[\x20-\x3f]*[\x40-\x7e]?|\x1b[\s\S]?/g;
/** C0 controls except tab and line feed, DEL, and C1 controls. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/**
 * `text` without terminal escape sequences (ESC and C1 introduced, payload included) and without
 * control characters. Tabs become spaces; line feeds stay when `newlines` is `'keep'` (the
 * default) and are shown as `⏎` when it is `'visible'`.
 */
export function terminalSafe(text: string, newlines: 'keep' | 'visible' = 'keep'): string {
  const plain = text.replace(SEQUENCE, '').replace(CONTROL, '').replace(/\t/g, ' ');
  return newlines === 'keep' ? plain : plain.replace(/\n/g, '⏎');
}

/**
 * JSON text made safe to print, losslessly: DEL and C1 controls, which `JSON.stringify` leaves
 * raw inside strings (it escapes C0 ones), written as `\u` escapes. It parses to the same value.
 */
export function jsonTerminalSafe(json: string): string {
  return json.replace(/[\x7f-\x9f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
