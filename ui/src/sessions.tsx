import { useEffect, useState } from 'preact/hooks';
import { request } from './api';
import { SessionDetail, SessionEvents, Sessions } from './documents';
import type { DashboardSessionEventFragment } from './gql/graphql';
import { useCoalesced, useLoad, useSubscription } from './hooks';
import { Problem } from './problem';
import { when } from './versions';

type SessionEvent = DashboardSessionEventFragment;

/**
 * Sessions of the selected project, kept current by the project's sessionEvent stream (new
 * sessions, lifecycle changes and event counts). Above a project every session readable is listed.
 */
export function SessionsView({ project, selected, select }: { project: string | null; selected?: string; select: (id?: string) => void }) {
  const list = useLoad(() => request(Sessions, { project }), [project]);
  const refresh = useCoalesced(() => list.reload());
  const liveError = useSubscription(SessionEvents, project ? { project, session: null } : null, refresh, [project]);
  const sessions = list.data?.sessions;
  return (
    <div class="split">
      <section class="list" aria-label="Sessions">
        <div class="toolbar">
          <h2>Sessions {sessions ? <span class="muted">({sessions.totalCount})</span> : null}</h2>
          {project ? null : <span class="muted">pick a project to follow its sessions live</span>}
        </div>
        <Problem error={list.error ?? liveError} />
        <ul>
          {sessions?.edges.map(({ node }) => (
            <li key={node.id} class={node.id === selected ? 'selected' : ''}>
              <button type="button" class="row" onClick={() => select(node.id)}>
                <span class={`status ${node.status.toLowerCase()}`}>{node.status}</span>
                <strong>{node.name ?? node.id}</strong>
                <span class="muted">
                  {node.agentId ? `${node.agentId} · ` : ''}
                  {node.eventCount} events · {when(node.startedAt)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      </section>
      <section class="detail" aria-label="Session">
        {selected ? <SessionPanel key={selected} id={selected} /> : <p class="muted">Pick a session to watch its events and state.</p>}
      </section>
    </div>
  );
}

/** One session: its last 100 events, then each new one as it commits; its state, reloaded on change. */
function SessionPanel({ id }: { id: string }) {
  const [stateTick, setStateTick] = useState(0);
  const loaded = useLoad(() => request(SessionDetail, { id }), [id, stateTick]);
  const session = loaded.data?.scope && 'events' in loaded.data.scope ? loaded.data.scope : undefined;
  const [events, setEvents] = useState<SessionEvent[]>([]);
  useEffect(() => setEvents([]), [id]);
  // A reload (the state changed) may have read before events that already arrived live: merge, never replace.
  useEffect(() => setEvents((list) => merged(list, session?.events.edges.map((e) => e.node) ?? [])), [session]);

  const liveError = useSubscription(
    SessionEvents,
    { session: id, project: null },
    ({ sessionEvent }) => {
      setEvents((list) => merged(list, [sessionEvent]));
      if (sessionEvent.stateDelta !== null || sessionEvent.transition) setStateTick((t) => t + 1);
    },
    [id],
  );

  if (loaded.error) return <Problem error={loaded.error} />;
  if (!session) return loaded.loading ? <p class="muted">Loading…</p> : <p class="muted">This session is gone or not yours to read.</p>;
  return (
    <article>
      <h2>
        {session.name ?? session.id} <span class={`status ${session.status.toLowerCase()}`}>{session.status}</span>
      </h2>
      <p class="muted">
        {session.purpose ? `${session.purpose} · ` : ''}turn {session.turn} · started {when(session.startedAt)}
        {session.endedAt ? ` · ended ${when(session.endedAt)}` : ''}
      </p>
      <Problem error={liveError} />
      <div class="columns">
        <section aria-label="Events">
          <h3>Events <span class="muted">({Math.max(session.events.totalCount, events.length)})</span></h3>
          <ol class="events">
            {events.map((event) => (
              <li key={event.id} data-sequence={event.sequence}>
                <span class="muted">#{event.sequence} {when(event.createdAt)}</span> <span class="kind">{event.type}</span>{' '}
                <strong>{event.actor}</strong>
                {event.transition ? ` ${event.transition.from ?? '—'} → ${event.transition.to}` : ''}
                {event.content !== null && event.content !== undefined ? <pre>{JSON.stringify(event.content, null, 2)}</pre> : null}
              </li>
            ))}
          </ol>
        </section>
        <section aria-label="State">
          <h3>State</h3>
          <table class="state">
            <tbody>
              {session.stateEntries.edges.map(({ node }) => (
                <tr key={node.id}>
                  <th>{node.key}</th>
                  <td>
                    <pre>{JSON.stringify(node.value, null, 2)}</pre>
                    <span class="muted">v{node.version} · {node.updatedBy ?? ''}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </div>
    </article>
  );
}

/** The events of both lists, once each, in log order; the newest 500. */
function merged(list: SessionEvent[], more: SessionEvent[]): SessionEvent[] {
  const byId = new Map(list.map((event) => [event.id, event]));
  for (const event of more) byId.set(event.id, event);
  return [...byId.values()].sort((a, b) => a.sequence - b.sequence).slice(-500);
}
