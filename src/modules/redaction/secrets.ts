import type { lintSource } from '@secretlint/core';
import type { creator as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig, SecretLintRuleCreator } from '@secretlint/types';

/**
 * Secret detection with secretlint (maintained rules for AWS, GCP, GitHub, OpenAI, Anthropic,
 * Slack, SendGrid, Shopify, npm, Linear, 1Password, private keys, basic auth and database
 * connection strings), plus a rule of ours (`SECRETS_OF_OURS`) for what those rules leave to
 * configuration (passwords and secrets written as `key: value` or "password is …", bearer tokens)
 * and the secrets the preset misses.
 *
 * The preset's rules are listed one by one without its filter-comments rule: that one honours
 * `secretlint-disable` comments in the text scanned, which in a memory would let any writer turn
 * the scanner off.
 */
const IGNORES_COMMENTS = '@secretlint/secretlint-rule-filter-comments';

/**
 * Options of the preset's rules that are off by default. The AWS rule finds an access key id
 * (`AKIA…`) alone, and an account id written as `aws_account_id: …`, only when asked to.
 */
const RULE_OPTIONS: Record<string, Record<string, unknown>> = { '@secretlint/secretlint-rule-aws': { enableIDScanRule: true } };

/**
 * Secrets of ours, by kind. What secretlint leaves to configuration (below), and what its preset
 * does not find (each measured with a real or real-shaped value, 2026-12-02): private keys whose
 * body is shorter than 100 base64 characters (an Ed25519 key in PKCS#8 is 64) and EC keys; OpenAI
 * project keys whose parts are not of the two lengths it knows; SendGrid keys with more than one
 * `-` or `_`; and providers it has no rule for (Stripe, Google API keys, JSON Web Tokens, GitLab,
 * Hugging Face, Azure storage keys and SAS signatures).
 */
const SECRETS_OF_OURS: Record<string, RegExp[]> = {
  // Left to configuration by secretlint: `key: value` and "password is …" (a bare `token` only as
  // `key: value` or `key=value`: "the token is refreshed" is prose), and bearer tokens.
  credential: [
    /\b(?:password|passwd|pwd|passphrase|secret|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret)\b["']?\s*(?:[:=]|\bis\b)\s*["']?[^\s"',;]{4,}/gi,
    /\btoken\b["']?\s*[:=]\s*["']?[^\s"',;]{4,}/gi,
  ],
  'bearer-token': [/\bBearer\s+[A-Za-z0-9._~+/-]{16,}=*/g],
  'private-key': [
    // To the END line over base64, blanks, escaped newlines and header lines (`Proc-Type: 4,ENCRYPTED`),
    // else over the base64 lines alone (not the prose after them). The first stops at any `-----`:
    // a text of BEGIN lines without an END is then read once, not once per BEGIN (38 s a MB).
    /-----BEGIN[A-Z0-9 ]* PRIVATE KEY(?: BLOCK)?-----(?:(?:[A-Za-z0-9+/=\s\\:,]|-(?!----))*?-----END[A-Z0-9 ]* PRIVATE KEY(?: BLOCK)?-----|(?:\s|\\n)*[A-Za-z0-9+/=]+(?:(?:\r?\n|\\n)[A-Za-z0-9+/=]+)*)/g,
  ],
  'openai-key': [/\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}/g],
  'sendgrid-key': [/\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g],
  'stripe-key': [/\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/g, /\bwhsec_[A-Za-z0-9+/=]{24,}/g],
  'google-api-key': [/\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g],
  jwt: [/\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{16,}/g],
  'gitlab-token': [/\bgl(?:pat|ptt|rt|dt|cbt|soat|ffct|oas|imt|agent)-[A-Za-z0-9_-]{20,}/g],
  'huggingface-token': [/\bhf_[A-Za-z0-9]{30,}/g],
  'azure-key': [/\b(?:AccountKey|SharedAccessKey)=[A-Za-z0-9+/]{20,}={0,2}/g, /[?&]sig=[A-Za-z0-9%+/]{20,}={0,2}/g],
};

/**
 * SECRETS_OF_OURS as a secretlint rule, each kind its message id. Hand-written rather than given
 * to secretlint's pattern rule, which compiles every pattern again on each scan and sorts and
 * deduplicates its matches with lodash: the ten kinds the preset misses made the scan of a short
 * name 20 → 36 µs through it (best of five runs of 2,000), 18–19 here; every write's name and
 * texts and every log line is scanned.
 */
const OUR_MESSAGES = Object.fromEntries(
  Object.keys(SECRETS_OF_OURS).map((kind) => [kind, { en: (props: { CREDENTIAL: string }) => `found ${kind}: ${props.CREDENTIAL}` }]),
);
const ourRule: SecretLintRuleCreator = {
  messages: OUR_MESSAGES,
  meta: { id: 'engram/secrets', type: 'scanner', recommended: false, supportedContentTypes: ['text'] },
  create(context) {
    const t = context.createTranslator(OUR_MESSAGES);
    return {
      file(source) {
        for (const [kind, patterns] of Object.entries(SECRETS_OF_OURS)) {
          for (const pattern of patterns) {
            for (const match of source.content.matchAll(pattern)) {
              context.report({ message: t(kind, { CREDENTIAL: match[0] }), range: [match.index, match.index + match[0].length] });
            }
          }
        }
      },
    };
  },
};

const configOf = (recommended: typeof recommendedRules): SecretLintCoreConfig => ({
  rules: [
    ...recommended.rules
      .filter((rule) => rule.meta.id !== IGNORES_COMMENTS)
      .map((rule) => ({ id: rule.meta.id, rule, ...(RULE_OPTIONS[rule.meta.id] ? { options: RULE_OPTIONS[rule.meta.id] } : {}) })),
    { id: ourRule.meta.id, rule: ourRule },
  ],
});

/**
 * secretlint 11 profiles every scan: `lintSource` puts a `performance.mark` per rule into Node's
 * global timeline, which keeps them until cleared, and its profiler's observer keeps each one in an
 * array of its own, scanning it again for every mark. Engram scans every written text and every
 * log line, so memory grew without bound and each scan got slower: measured on the real server,
 * 1,500 updates in a row took 24 ms each on average, 70 % of the CPU in the profiler and Node's
 * timeline, and a read after a write paid for the measures it queued. Nothing reads the profile,
 * so marking is switched off. Hand-written because the fix upstream (`setEnabled(false)`,
 * secretlint 13.1) requires Node 22, and Engram runs on Node 20 too.
 */
function silenceProfiler(profiler: { mark: (...args: never[]) => void }): void {
  profiler.mark = () => undefined;
}

interface Scanner {
  lintSource: typeof lintSource;
  config: SecretLintCoreConfig;
}

let scanner: Promise<Scanner> | undefined;

/**
 * secretlint and its rules, loaded on the first scan: an `engram` command that writes nothing and
 * logs nothing (keys list, migrate status, export) does not load them (`engram keys list` 1.26 →
 * 1.15 s, compiled, 8 runs each in turn, 2026-11-29).
 */
function loadScanner(): Promise<Scanner> {
  scanner ??= Promise.all([
    import('@secretlint/core'),
    import('@secretlint/profiler'),
    import('@secretlint/secretlint-rule-preset-recommend'),
  ]).then(([core, { secretLintProfiler }, recommended]) => {
    silenceProfiler(secretLintProfiler);
    return { lintSource: core.lintSource, config: configOf(recommended.creator) };
  });
  return scanner;
}

export interface SecretFinding {
  /** What was found, e.g. `GITHUB_TOKEN`, `password`. */
  kind: string;
  start: number;
  end: number;
}

/**
 * The secrets in a text, in order, without overlaps: a finding that overlaps the one before is
 * merged into it (the first kind names both), so that no part of either is left in clear.
 */
export async function findSecrets(text: string): Promise<SecretFinding[]> {
  if (text.length < 8) return [];
  const { lintSource, config } = await loadScanner();
  const result = await lintSource({
    source: {
      // Stryker disable next-line StringLiteral: equivalent, rules look at the name and extension only for .p12, .json, .npmrc and package files; "" is none of them either
      filePath: '/engram-memory.txt',
      content: text,
      // Stryker disable next-line StringLiteral: equivalent, as for filePath
      ext: '.txt',
      contentType: 'text',
    },
    // Stryker disable next-line BooleanLiteral: equivalent, only the GCP rule reads a physical file, and only for a .p12 name
    options: { config, noPhysicFilePath: true },
  });
  const findings = result.messages.flatMap((m) => {
    const kind = m.messageId;
    return [{ kind, start: m.range[0], end: m.range[1] }, ...everywhere(text, (m as { data?: Record<string, unknown> }).data, kind)];
  });
  // secretlint (9.x) already returns its messages by start, then end, ascending: this sort changes
  // only the order of two findings starting at the same character, which no two of our rules make.
  // It is kept so that the merge below does not depend on that. (`&&` for `||` is killed.)
  // Stryker disable next-line MethodExpression,ArrowFunction,ConditionalExpression,ArithmeticOperator: equivalent, see above (on messages already in this order, these comparators keep it)
  findings.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: SecretFinding[] = [];
  for (const f of findings) {
    const last = kept[kept.length - 1];
    if (last && f.start < last.end) last.end = Math.max(last.end, f.end);
    else kept.push(f);
  }
  return kept;
}

/** The names under which the rules give, in their message's data, the secret they found (not FILE_NAME). */
const SECRET_DATA = ['CREDENTIAL', 'ID', 'KEY', 'TOKEN', 'URI', 'URL'];

/**
 * Every place in `text` of the secret a rule names in its message's data. A rule's range is not
 * enough: secretlint's AWS secret access key rule reports the key's length from where the variable's
 * name starts, so the key's end stayed in clear (`AWS_SECRET_ACCESS_KEY=wJal…` kept 22 of its 40
 * characters, searchable), or all of it after a run of spaces before the `=`. And the same secret
 * written again where no rule sees it (the key alone, further on) is the same secret.
 */
function everywhere(text: string, data: Record<string, unknown> | undefined, kind: string): SecretFinding[] {
  const found: SecretFinding[] = [];
  for (const name of SECRET_DATA) {
    const value = data?.[name];
    // Shorter than the shortest secret a rule reports (8): not one to look for everywhere.
    if (typeof value !== 'string' || value.length < 8) continue;
    for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + value.length)) found.push({ kind, start: at, end: at + value.length });
  }
  return found;
}

/** The text with each finding replaced by a marker naming its kind. */
export function redact(text: string, findings: readonly SecretFinding[]): string {
  let out = '';
  let at = 0;
  for (const f of findings) {
    out += text.slice(at, f.start) + `[REDACTED:${f.kind}]`;
    at = f.end;
  }
  return out + text.slice(at);
}
