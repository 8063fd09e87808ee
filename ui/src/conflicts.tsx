import { useEffect, useState } from 'preact/hooks';
import { request } from './api';
import { ConflictEvents, ConflictResolvedEvents, Conflicts, ResolveConflict } from './documents';
import type { ConflictResolution, ConflictResolutionStrategy, DashboardConflictFragment, MergedContentInput } from './gql/graphql';
import { asApiError, useLoad, useSubscription } from './hooks';
import { Problem } from './problem';
import { SideBySide, VersionHeading, versionFields, versionText, when } from './versions';

type Conflict = DashboardConflictFragment;

/**
 * Conflicts of the scope and the scopes below it: the list follows conflictDetected and
 * conflictResolved live; the selected one shows both versions side by side and resolves.
 */
export function ConflictsView({ scope, selected, select }: { scope: string; selected?: string; select: (id?: string) => void }) {
  const [showResolved, setShowResolved] = useState(false);
  const loaded = useLoad(() => request(Conflicts, { scope, resolved: showResolved ? null : false }), [scope, showResolved]);
  const [items, setItems] = useState<Conflict[]>([]);
  useEffect(() => setItems(loaded.data?.conflicts.edges.map((e) => e.node) ?? []), [loaded.data]);

  // A resolved conflict leaves the open list, unless it is the one on screen (its outcome shows).
  const upsert = (conflict: Conflict) =>
    setItems((list) => {
      if (conflict.resolved && !showResolved && conflict.id !== selected) return list.filter((c) => c.id !== conflict.id);
      const at = list.findIndex((c) => c.id === conflict.id);
      return at < 0 ? [conflict, ...list] : list.map((c, i) => (i === at ? conflict : c));
    });
  // An event's conflict is null once its entry was deleted: nothing to show.
  const upsertLive = (conflict: Conflict | null) => conflict && upsert(conflict);
  const detectedError = useSubscription(ConflictEvents, { scope }, (d) => upsertLive(d.conflictDetected.conflict), [scope, showResolved]);
  const resolvedError = useSubscription(ConflictResolvedEvents, { scope }, (d) => upsertLive(d.conflictResolved.conflict), [scope, showResolved]);

  const current = items.find((c) => c.id === selected);
  return (
    <div class="split">
      <section class="list" aria-label="Conflicts">
        <div class="toolbar">
          <h2>{showResolved ? 'All conflicts' : 'Open conflicts'}</h2>
          <label>
            <input type="checkbox" checked={showResolved} onChange={(e) => setShowResolved(e.currentTarget.checked)} /> resolved too
          </label>
        </div>
        <Problem error={loaded.error ?? detectedError ?? resolvedError} />
        {items.length === 0 && !loaded.loading ? <p class="muted">No conflicts here. New ones appear as they happen.</p> : null}
        <ul>
          {items.map((c) => (
            <li key={c.id} class={c.id === selected ? 'selected' : ''}>
              <button type="button" class="row" onClick={() => select(c.id)} data-conflict={c.id}>
                <span class={`kind ${c.entry.kind.toLowerCase()}`}>{c.entry.kind}</span>
                <strong>{c.entry.name}</strong>
                <span class="muted">
                  v{c.versionA.version} ↔ v{c.versionB.version} by {c.versionB.createdBy ?? 'unknown'} · {when(c.detectedAt)}
                </span>
                {c.resolved ? <span class="badge">{resolutionLabel(c)}</span> : null}
              </button>
            </li>
          ))}
        </ul>
      </section>
      <section class="detail" aria-label="Conflict">
        {current ? <ConflictDetail key={current.id} conflict={current} onResolved={upsert} /> : <p class="muted">Pick a conflict.</p>}
      </section>
    </div>
  );
}

function ConflictDetail({ conflict, onResolved }: { conflict: Conflict; onResolved: (c: Conflict) => void }) {
  const [merging, setMerging] = useState(false);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ message: string; code: string }>();
  const [outcome, setOutcome] = useState<string>();

  const resolve = async (strategy: ConflictResolutionStrategy, merged?: MergedContentInput) => {
    setBusy(true);
    setProblem(undefined);
    try {
      const { resolveConflict: result } = await request(ResolveConflict, {
        input: { id: conflict.id, strategy, merged: merged ?? null, note: note.trim() || null },
      });
      if (result.__typename === 'ResolveConflictSuccess') {
        const written = result.resolution.version;
        setOutcome(written ? `Resolved: the entry is now at version ${written.version}.` : 'Resolved: the current version stays.');
        setMerging(false);
        onResolved(result.resolution.conflict);
      } else {
        setProblem({ message: result.message, code: result.code });
      }
    } catch (error) {
      setProblem(asApiError(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <article class="conflict">
      <h2>
        {conflict.entry.name} <span class="muted">in {conflict.entry.scope.name ?? conflict.entry.scope.id}</span>
      </h2>
      <div class="columns">
        <VersionHeading label="Current" version={conflict.versionA} />
        <VersionHeading label="Incoming" version={conflict.versionB} />
      </div>
      <SideBySide before={versionText(conflict.versionA)} after={versionText(conflict.versionB)} />
      {conflict.resolved ? (
        <p class="resolved" role="status">
          {resolutionLabel(conflict)} by {conflict.resolvedBy ?? 'unknown'}
          {conflict.resolvedAt ? ` at ${when(conflict.resolvedAt)}` : ''}
          {conflict.resolutionVersion ? `, version ${conflict.resolutionVersion.version}` : ''}.{conflict.note ? ` “${conflict.note}”` : ''}
        </p>
      ) : (
        <div class="actions">
          <input placeholder="Note (optional)" value={note} onInput={(e) => setNote(e.currentTarget.value)} maxLength={2000} />
          <button type="button" disabled={busy} onClick={() => void resolve('KEEP_CURRENT')}>Keep current</button>
          <button type="button" disabled={busy} onClick={() => void resolve('TAKE_INCOMING')}>Take incoming</button>
          <button type="button" disabled={busy} onClick={() => setMerging(!merging)}>{merging ? 'Close editor' : 'Merge…'}</button>
        </div>
      )}
      {merging && !conflict.resolved ? <MergeEditor conflict={conflict} busy={busy} onMerge={(m) => void resolve('MERGE', m)} /> : null}
      <Problem error={problem} />
      {outcome ? <p role="status" class="ok">{outcome}</p> : null}
    </article>
  );
}

const RESOLUTIONS: Record<ConflictResolution, string> = { KEPT_CURRENT: 'Kept current', TOOK_INCOMING: 'Took incoming', MERGED: 'Merged' };

function resolutionLabel(conflict: Conflict): string {
  return conflict.resolution ? RESOLUTIONS[conflict.resolution] : 'Resolved';
}

const JSON_FIELDS = new Set(['parameters', 'examples']);

/** Starts from the incoming version (what MERGE keeps for fields left out); JSON fields must parse. */
function MergeEditor({ conflict, busy, onMerge }: { conflict: Conflict; busy: boolean; onMerge: (merged: MergedContentInput) => void }) {
  const fields = versionFields(conflict.versionB);
  const [values, setValues] = useState<Record<string, string>>(Object.fromEntries(fields));
  const [invalid, setInvalid] = useState<string>();

  const submit = (event: Event) => {
    event.preventDefault();
    const merged: Record<string, unknown> = {};
    for (const [name] of fields) {
      const text = values[name] ?? '';
      if (JSON_FIELDS.has(name)) {
        try {
          merged[name] = text.trim() === '' ? null : (JSON.parse(text) as unknown);
        } catch {
          setInvalid(`${name} is not valid JSON`);
          return;
        }
      } else if (name === 'confidence') merged[name] = Number(text);
      else merged[name] = text === '' ? null : text;
    }
    setInvalid(undefined);
    onMerge(merged);
  };

  return (
    <form class="merge" onSubmit={submit} aria-label="Merge editor">
      {fields.map(([name]) => (
        <label key={name}>
          {name}
          <textarea
            name={name}
            rows={name === 'content' || name === 'description' ? 8 : 3}
            value={values[name]}
            onInput={(e) => setValues({ ...values, [name]: e.currentTarget.value })}
          />
        </label>
      ))}
      {invalid ? <p class="problem">{invalid}</p> : null}
      <button type="submit" disabled={busy}>Save merged version</button>
    </form>
  );
}
