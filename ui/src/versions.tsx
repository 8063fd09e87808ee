import { diffLines } from 'diff';
import type { DashboardVersionFragment } from './gql/graphql';

/** The fields a version of each kind holds, in reading order, as text. */
export function versionFields(version: DashboardVersionFragment): [string, string][] {
  const json = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value, null, 2));
  switch (version.__typename) {
    case 'GuidelineVersion':
      return [['content', version.content], ['rationale', version.rationale ?? ''], ['examples', json(version.examples)]];
    case 'KnowledgeVersion':
      return [
        ['content', version.content],
        ['source', version.source ?? ''],
        ['confidence', String(version.confidence)],
        ['validUntil', version.validUntil ?? ''],
      ];
    case 'ToolVersion':
      return [
        ['description', version.description ?? ''],
        ['constraints', version.constraints ?? ''],
        ['parameters', json(version.parameters)],
        ['examples', json(version.examples)],
      ];
    default:
      return [];
  }
}

/** A version as one text (field headings and values), the unit the diff compares. */
export function versionText(version: DashboardVersionFragment): string {
  return versionFields(version)
    .filter(([, value]) => value !== '')
    .map(([name, value]) => `# ${name}\n${value}\n`)
    .join('\n');
}

export function VersionHeading({ label, version }: { label: string; version: DashboardVersionFragment }) {
  return (
    <header class="version-heading">
      <strong>{label}</strong> v{version.version} · {version.createdBy ?? 'unknown author'} ·{' '}
      <time dateTime={version.createdAt}>{when(version.createdAt)}</time>
      {version.changeReason ? <div class="muted">{version.changeReason}</div> : null}
    </header>
  );
}

/**
 * Two versions side by side, line by line: lines only in `before` are marked on the left, lines
 * only in `after` on the right, unchanged lines face each other.
 */
export function SideBySide({ before, after }: { before: string; after: string }) {
  const rows: { left: string | null; right: string | null; kind: 'same' | 'changed' }[] = [];
  let removed: string[] = [];
  const flush = (added: string[]) => {
    for (let i = 0; i < Math.max(removed.length, added.length); i++) {
      rows.push({ left: removed[i] ?? null, right: added[i] ?? null, kind: 'changed' });
    }
    removed = [];
  };
  for (const part of diffLines(before, after)) {
    const lines = part.value.replace(/\n$/, '').split('\n');
    if (part.removed) removed.push(...lines);
    else if (part.added) flush(lines);
    else {
      flush([]);
      for (const line of lines) rows.push({ left: line, right: line, kind: 'same' });
    }
  }
  flush([]);
  return (
    <table class="diff" aria-label="Differences">
      <tbody>
        {rows.map((row, i) => (
          <tr key={i} class={row.kind}>
            <td class={row.kind === 'changed' && row.left !== null ? 'removed' : ''}>{row.left ?? ''}</td>
            <td class={row.kind === 'changed' && row.right !== null ? 'added' : ''}>{row.right ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function when(instant: string): string {
  return new Date(instant).toLocaleString();
}
