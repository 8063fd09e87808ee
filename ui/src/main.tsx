import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { apiKey, onLinkState, request, setApiKey, type LinkState } from './api';
import { ConflictsView } from './conflicts';
import { ScopesPage } from './documents';
import { EntriesView } from './entries';
import { useLoad } from './hooks';
import { Problem } from './problem';
import { SessionsView } from './sessions';
import './style.css';

type View = 'conflicts' | 'sessions' | 'entries';
const VIEWS: View[] = ['conflicts', 'sessions', 'entries'];

interface Route {
  view: View;
  scope?: string;
  item?: string;
}

/** `#/<view>/<scope id>/<item id>`: a view can be bookmarked and reloaded. */
function parseRoute(hash: string): Route {
  const [view, scope, item] = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  return { view: VIEWS.includes(view as View) ? (view as View) : 'conflicts', scope: scope || undefined, item: item || undefined };
}

function go(route: Route): void {
  const parts = [route.view, route.scope, route.item].filter((p): p is string => Boolean(p)).map(encodeURIComponent);
  location.hash = `#/${parts.join('/')}`;
}

function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', update);
    return () => removeEventListener('hashchange', update);
  }, []);
  return route;
}

interface ScopeOption {
  id: string;
  label: string;
  project: boolean;
}

/** Every scope the caller may read, global first, organizations with their projects below them. */
async function loadScopes() {
  const first = await request(ScopesPage, { after: null });
  const projects = first.projects.edges.map((e) => e.node);
  // Projects page by 100; ten pages cover any team's picker, beyond that the id can be typed in the URL.
  for (let page = first.projects.pageInfo, n = 1; page.hasNextPage && n < 10; n++) {
    const next = await request(ScopesPage, { after: page.endCursor });
    projects.push(...next.projects.edges.map((e) => e.node));
    page = next.projects.pageInfo;
  }
  const options: ScopeOption[] = [{ id: first.globalScope.id, label: first.globalScope.name ?? 'global', project: false }];
  const projectOptions = (parent: string, depth: string) =>
    projects.filter((p) => p.parent?.id === parent).map((p) => ({ id: p.id, label: `${depth}${p.name ?? p.id}`, project: true }));
  options.push(...projectOptions(first.globalScope.id, '  '));
  for (const org of first.organizations.edges.map((e) => e.node)) {
    options.push({ id: org.id, label: `  ${org.name ?? org.id}`, project: false }, ...projectOptions(org.id, '    '));
  }
  return { options, viewer: first.viewer };
}

function App() {
  const route = useRoute();
  const scopes = useLoad(loadScopes, []);
  const options = scopes.data?.options ?? [];
  const scope = route.scope ?? options[0]?.id;
  const selected = options.find((o) => o.id === scope);
  // A scope made after the list was read (a link to a new project): read the list again, once.
  const [missing, setMissing] = useState<string>();
  useEffect(() => {
    if (scopes.data && scope && !selected && scope !== missing) {
      setMissing(scope);
      scopes.reload();
    }
  }, [scopes.data, scope, selected, missing]);
  const select = (item?: string) => go({ ...route, scope, item });

  return (
    <>
      <header class="top">
        <h1>Engram</h1>
        <label>
          Scope{' '}
          <select aria-label="Scope" value={scope ?? ''} onFocus={scopes.reload} onChange={(e) => go({ view: route.view, scope: e.currentTarget.value })}>
            {options.map((o) => (
              <option key={o.id} value={o.id}>{o.label}</option>
            ))}
            {scope && !selected ? <option value={scope}>{scope}</option> : null}
          </select>
        </label>
        <nav>
          {VIEWS.map((view) => (
            <a key={view} href={`#/${view}/${scope ?? ''}`} class={view === route.view ? 'current' : ''} aria-current={view === route.view ? 'page' : undefined}>
              {view[0]!.toUpperCase() + view.slice(1)}
            </a>
          ))}
        </nav>
        <Link />
        <KeyButton who={scopes.data?.viewer.principal?.name} />
      </header>
      <main>
        <Problem error={scopes.error} />
        {!scope ? null : route.view === 'conflicts' ? (
          <ConflictsView key={scope} scope={scope} selected={route.item} select={select} />
        ) : route.view === 'sessions' ? (
          <SessionsView key={scope} project={selected?.project ? scope : null} selected={route.item} select={select} />
        ) : (
          <EntriesView key={scope} scope={scope} selected={route.item} select={select} />
        )}
      </main>
    </>
  );
}

/** Whether live updates flow: subscriptions share one WebSocket that reconnects by itself. */
function Link() {
  const [state, setState] = useState<LinkState>('connecting');
  useEffect(() => onLinkState(setState), []);
  return (
    <span class={`link ${state}`} role="status" aria-label="Live updates">
      {state === 'live' ? '● live' : state === 'connecting' ? '○ connecting' : '○ reconnecting'}
    </span>
  );
}

/** The API key this browser sends (localStorage); without one only a local server answers. */
function KeyButton({ who }: { who?: string | undefined }) {
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState('');
  // Every open subscription was authenticated with the old key: start over with the new one.
  const save = (key: string | null) => {
    setApiKey(key);
    location.reload();
  };
  return (
    <span class="key">
      <button type="button" onClick={() => setOpen(!open)}>{apiKey() ? `Key: ${who ?? 'set'}` : 'API key'}</button>
      {open ? (
        <form
          class="key-form"
          onSubmit={(e) => {
            e.preventDefault();
            save(value.trim() || null);
          }}
        >
          <input type="password" autocomplete="off" placeholder="engram_…" value={value} onInput={(e) => setValue(e.currentTarget.value)} aria-label="API key" />
          <button type="submit">Use</button>
          {apiKey() ? <button type="button" onClick={() => save(null)}>Forget</button> : null}
        </form>
      ) : null}
    </span>
  );
}

render(<App />, document.getElementById('app')!);
