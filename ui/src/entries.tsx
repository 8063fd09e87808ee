import { useState } from 'preact/hooks';
import { request } from './api';
import { Entries, EntryChanges, EntryHistory } from './documents';
import type { EntryKind } from './gql/graphql';
import { useCoalesced, useLoad, useSubscription } from './hooks';
import { Problem } from './problem';
import { SideBySide, VersionHeading, versionText, when } from './versions';

const KINDS: EntryKind[] = ['GUIDELINE', 'KNOWLEDGE', 'TOOL'];

/** The scope's own entries (pages of 50), reloaded as entryChanged reports changes. */
export function EntriesView({ scope, selected, select }: { scope: string; selected?: string; select: (id?: string) => void }) {
  const [kind, setKind] = useState<EntryKind | null>(null);
  const [after, setAfter] = useState<string[]>([]);
  const cursor = after[after.length - 1] ?? null;
  const list = useLoad(() => request(Entries, { scope, kind, after: cursor }), [scope, kind, cursor]);
  const [changed, setChanged] = useState(0);
  const refresh = useCoalesced(() => {
    list.reload();
    setChanged((n) => n + 1);
  });
  const liveError = useSubscription(EntryChanges, { scope }, refresh, [scope]);
  const page = list.data?.scope?.entries;

  return (
    <div class="split">
      <section class="list" aria-label="Entries">
        <div class="toolbar">
          <h2>Entries {page ? <span class="muted">({page.totalCount})</span> : null}</h2>
          <select
            aria-label="Kind"
            value={kind ?? ''}
            onChange={(e) => {
              setKind((e.currentTarget.value || null) as EntryKind | null);
              setAfter([]);
            }}
          >
            <option value="">every kind</option>
            {KINDS.map((k) => (
              <option key={k} value={k}>{k.toLowerCase()}</option>
            ))}
          </select>
        </div>
        <Problem error={list.error ?? liveError} />
        <ul>
          {page?.edges.map(({ node }) => (
            <li key={node.id} class={node.id === selected ? 'selected' : ''}>
              <button type="button" class="row" onClick={() => select(node.id)}>
                <span class={`kind ${node.kind.toLowerCase()}`}>{node.kind}</span>
                <strong>{node.name}</strong>
                <span class="muted">v{node.latestVersion} · {when(node.updatedAt)}{node.active ? '' : ' · inactive'}</span>
                {node.unresolvedConflictCount > 0 ? <span class="badge warn">{node.unresolvedConflictCount} conflict</span> : null}
              </button>
            </li>
          ))}
        </ul>
        <div class="pager">
          <button type="button" disabled={after.length === 0} onClick={() => setAfter(after.slice(0, -1))}>Previous</button>
          <button type="button" disabled={!page?.pageInfo.hasNextPage} onClick={() => page?.pageInfo.endCursor && setAfter([...after, page.pageInfo.endCursor])}>
            Next
          </button>
        </div>
      </section>
      <section class="detail" aria-label="Entry">
        {selected ? <EntryDetail key={selected} id={selected} changed={changed} /> : <p class="muted">Pick an entry to see its history.</p>}
      </section>
    </div>
  );
}

/** An entry's versions, newest first; each shows what it changed from the one before. */
function EntryDetail({ id, changed }: { id: string; changed: number }) {
  const loaded = useLoad(() => request(EntryHistory, { id }), [id, changed]);
  const entry = loaded.data?.entry;
  if (loaded.error) return <Problem error={loaded.error} />;
  if (!entry) return loaded.loading ? <p class="muted">Loading…</p> : <p class="muted">This entry is gone or not yours to read.</p>;
  // Newest first, as the connection gives them.
  const versions = entry.versions.edges.map((e) => e.node);
  return (
    <article>
      <h2>
        {entry.name} <span class="muted">{entry.kind.toLowerCase()} in {entry.scope.name ?? entry.scope.id}</span>
      </h2>
      <p class="muted">
        {entry.versions.totalCount} versions · tags: {entry.tags.map((t) => t.name).join(', ') || 'none'}
        {entry.category ? ` · category ${entry.category}` : ''}
      </p>
      {versions.map((version, i) => {
        const previous = versions[i + 1];
        return (
          <section key={version.id} class="version">
            <VersionHeading label={version.conflictFlag ? 'Conflicting' : 'Version'} version={version} />
            <SideBySide before={previous ? versionText(previous) : ''} after={versionText(version)} />
          </section>
        );
      })}
    </article>
  );
}
