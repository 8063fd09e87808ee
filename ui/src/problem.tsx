const HINTS: Record<string, string> = {
  UNAUTHENTICATED: 'Set an API key (top right).',
  FORBIDDEN: "This key's grants do not allow it.",
};

/** A refusal or failure as the person sees it: what happened, what to do, and the server's code. */
export function Problem({ error }: { error?: { message: string; code: string } | undefined }) {
  if (!error) return null;
  const message = /[.!?]$/.test(error.message) ? error.message : `${error.message}.`;
  return (
    <p class="problem" role="alert">
      {message} {HINTS[error.code] ?? ''} <code>{error.code}</code>
    </p>
  );
}
