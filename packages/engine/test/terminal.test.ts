import { describe, expect, it } from 'vitest';
import { jsonTerminalSafe, terminalSafe } from '../src/cli/terminal.ts';

/** Characters a terminal acts on: C0 controls other than tab and line feed, ESC, DEL, C1. */
// eslint-disable-next-line no-control-regex -- the characters under test
const ACTIVE = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

describe('terminalSafe', () => {
  it('removes escape sequences with their payload, keeping the visible text', () => {
    expect(terminalSafe('a\x1b]0;owned title\x07b')).toBe('ab'); // window title (OSC 0, BEL)
    expect(terminalSafe('a\x1b]2;owned\x1b\\b')).toBe('ab'); // OSC ended by ST
    expect(terminalSafe('\x1b[2J\x1b[Hclean')).toBe('clean'); // clear screen, cursor home
    expect(terminalSafe('\x1b[1;31mred\x1b[0m')).toBe('red');
    // an OSC 8 hyperlink whose target is not its text
    expect(
      terminalSafe('\x1b]8;;https://evil.example/\x1b\\https://bank.example\x1b]8;;\x1b\\'),
    ).toBe('https://bank.example');
    expect(terminalSafe('a\x9b2Jb\x9d0;t\x9cc')).toBe('abc'); // the same as C1 controls
    expect(terminalSafe('a\x1bPdevice control\x1b\\b\x1b_app\x07c')).toBe('abc'); // DCS, APC
    expect(terminalSafe('cut \x1b]0;never terminated')).toBe('cut ');
    expect(terminalSafe('\x1bcreset')).toBe('reset'); // a two-character ESC sequence
  });

  it('removes every other control character; tabs become spaces; line feeds kept or shown', () => {
    const all = Array.from({ length: 0xa0 }, (_, i) => String.fromCharCode(i)).join('');
    const safe = terminalSafe(`${all}\r\nz`);
    expect(safe).not.toMatch(ACTIVE);
    expect(terminalSafe('a\tb\r\nc\bd\x00e\x7f')).toBe('a b\ncde');
    expect(terminalSafe('one\ntwo', 'visible')).toBe('one⏎two');
    expect(terminalSafe('plain text, ünïcödé, 漢字 😀')).toBe('plain text, ünïcödé, 漢字 😀');
  });
});

describe('jsonTerminalSafe', () => {
  it('escapes the C1 controls JSON.stringify leaves raw, and parses to the same value', () => {
    const value = { text: 'a\x9b2J\x1b[2J\x85b\x7f', n: 1 };
    const json = jsonTerminalSafe(JSON.stringify(value));
    expect(json).not.toMatch(ACTIVE);
    expect(JSON.parse(json)).toEqual(value);
  });
});
