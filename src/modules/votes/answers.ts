import { setFlagsFromString } from 'node:v8';
import { LIMITS } from '../../domain/limits.ts';
import { jsonDepth } from '../../domain/validate.ts';

export const VOTE_NORMALIZATIONS = ['EXACT', 'TRIM', 'CASE_INSENSITIVE', 'JSON'] as const;
export type VoteNormalization = (typeof VOTE_NORMALIZATIONS)[number];

/** The longest answer a vote may carry at all (a question's maxAnswerLength red-flags shorter ones). */
export const VOTE_ANSWER_MAX = 10_000;
/** The longest answerPattern. */
export const VOTE_PATTERN_MAX = 500;
/**
 * The most a pattern is matched against: its length times the answer's. The linear-time engine
 * runs in time proportional to both (V8's is slow at it: ~0.1–0.2 µs per pattern character per
 * answer character, more with capture groups): a pattern of 125 `(.*)` against an answer of
 * 10,000 characters took 1 s of the event loop, inside the vote's write transaction. Within this
 * budget a match takes at most ~20 ms; an answer past it is discarded as TOO_LONG.
 */
export const VOTE_MATCH_BUDGET = 100_000;

/** Whether `subject` is short enough to be matched against `pattern` (VOTE_MATCH_BUDGET). */
export const matchable = (pattern: string, subject: string): boolean => pattern.length * subject.length <= VOTE_MATCH_BUDGET;

/**
 * A caller's regular expression runs on V8's non-backtracking engine (the `l` flag): it simulates
 * the pattern's automaton over the subject once, so a match costs O(pattern × answer) whatever the
 * pattern, and no pattern can hang the event loop (a backtracking engine takes exponential time on
 * `(a+)+$`). The engine is part of V8 since 8.8 behind this flag, which only makes `l` available;
 * it refuses what it cannot run in linear time (backreferences, lookarounds, flags, counted
 * repetition above 16), and such a pattern is refused as invalid.
 */
setFlagsFromString('--enable-experimental-regexp-engine');
const LINEAR_AVAILABLE = (() => {
  try {
    // eslint-disable-next-line no-invalid-regexp -- `l` exists behind the flag set above
    return new RegExp('^a$', 'l').test('a');
  } catch {
    return false;
  }
})();

/** The pattern compiled to match a whole answer in linear time; an Error saying why it cannot be. */
export function linearPattern(pattern: string): RegExp | Error {
  if (!LINEAR_AVAILABLE) return new Error('answer patterns are not available on this runtime (no linear-time regular expression engine)');
  try {
    // The pattern compiles alone first: `yes)|(?:no` is not one, yet wrapped it would compile to
    // `^(?:yes)|(?:no)$`, which checks only how an answer starts or ends.
    // eslint-disable-next-line no-invalid-regexp -- as above
    new RegExp(pattern, 'l');
    // eslint-disable-next-line no-invalid-regexp -- as above
    return new RegExp(`^(?:${pattern})$`, 'l');
  } catch (error) {
    const reason = (error as Error).message.replace(/^Invalid regular expression: \/.*\/l: /s, '');
    return new Error(`must be a regular expression that runs in linear time (no backreferences, lookarounds or counted repetition above 16): ${reason}`);
  }
}

/** The answer as compared, or null when it is not valid JSON under JSON normalization. */
export function normalizeAnswer(normalization: VoteNormalization, answer: string): string | null {
  switch (normalization) {
    case 'EXACT':
      return answer;
    case 'TRIM':
      return answer.trim();
    case 'CASE_INSENSITIVE':
      return answer.trim().toLowerCase();
    case 'JSON':
      return canonicalJson(answer);
  }
}

/**
 * JSON text re-serialized compactly with every object's keys sorted; null when it is not JSON,
 * nests too deep, or holds a number a double cannot carry (see exactNumbers).
 */
function canonicalJson(text: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (jsonDepth(value) > LIMITS.jsonDepth || !exactNumbers(text)) return null;
  return JSON.stringify(sortKeys(value));
}

/**
 * Whether every number of the JSON text `text` (valid JSON) is the number its double prints as:
 * `1.0`, `1e2` and `0.1` are, `1e400` (Infinity, printed as null) and 12345678901234567891 (which
 * rounds to ...7000) are not. Two different answers would otherwise count as one. The sign of a
 * zero does not count (-0 and 0 are one number in JSON, as in RFC 8785's canonical form).
 */
function exactNumbers(text: string): boolean {
  for (const literal of numberLiterals(text)) {
    const value = Number(literal);
    if (!Number.isFinite(value) || decimal(literal) !== decimal(String(value))) return false;
  }
  return true;
}

/** The number literals of valid JSON text (outside its strings). */
function* numberLiterals(text: string): Generator<string> {
  const token = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
  for (const match of text.matchAll(token)) if (match[0][0] !== '"') yield match[0];
}

/** A decimal literal as its significant digits and the exponent of its last one ("1.50e1" and "15" are both "15e0"); zero is "0". */
function decimal(literal: string): string {
  const [, whole = '', fraction = '', exponent = '0'] = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal) ?? [];
  const digits = (whole + fraction).replace(/^0+/, '');
  const significant = digits.replace(/0+$/, '');
  if (significant === '') return '0';
  const sign = literal.startsWith('-') ? '-' : '';
  return `${sign}${significant}e${Number(exponent) - fraction.length + (digits.length - significant.length)}`;
}

/** Recursion is bounded by the depth check above. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(Object.keys(record).sort().map((key) => [key, sortKeys(record[key])]));
}

/**
 * What the red-flag rules (maxAnswerLength, answerPattern) look at: the answer as sent for EXACT,
 * else without surrounding whitespace (a trailing newline is not a sign of a confused agent).
 */
export function answerSubject(normalization: VoteNormalization, answer: string): string {
  return normalization === 'EXACT' ? answer : answer.trim();
}
