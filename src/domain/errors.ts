/**
 * Expected failures. Services throw them; the GraphQL layer returns them as typed members of
 * result unions (mutations) or as errors with `extensions.code` (queries). Anything else is an
 * unexpected error and is masked.
 */
export abstract class DomainError extends Error {
  abstract readonly code: string;
  /**
   * Input path of the offending value, e.g. ["input", "scope"]. (Not `path`: graphql-js takes an
   * error with a `path` array for an already located GraphQL error.)
   */
  readonly inputPath: string[];
  constructor(message: string, path: string[] = []) {
    super(message);
    this.name = new.target.name;
    this.inputPath = path;
  }

  /** Picked up by graphql-js when the error surfaces as a GraphQL error (outside result unions). */
  get extensions(): Record<string, unknown> {
    return { code: this.code, inputPath: this.inputPath };
  }
}

export class NotFoundError extends DomainError {
  readonly code = 'NOT_FOUND';
}

export class AlreadyExistsError extends DomainError {
  readonly code = 'ALREADY_EXISTS';
}

export interface FieldIssue {
  path: string[];
  message: string;
}

export class ValidationError extends DomainError {
  readonly code = 'VALIDATION_FAILED';
  readonly issues: FieldIssue[];
  constructor(issues: FieldIssue[]) {
    const first = issues[0] ?? { path: [], message: 'Invalid input' };
    super(
      issues.length === 1 ? `${first.path.join('.')}: ${first.message}` : `${issues.length} invalid fields`,
      first.path,
    );
    this.issues = issues;
  }
}

/** A scope placed where the tree does not allow it (e.g. a session under an organization). */
export class InvalidPlacementError extends DomainError {
  readonly code = 'INVALID_PLACEMENT';
}

/** An operation the target's current state does not allow (e.g. ending an ended session). */
export class InvalidStateError extends DomainError {
  readonly code = 'INVALID_STATE';
  constructor(
    message: string,
    readonly currentState: string,
    path: string[] = [],
  ) {
    super(message, path);
  }
}

/**
 * A write refused under strict optimistic locking (`onConflict: REJECT`): the entry moved past the
 * writer's `expectedVersion`, or another writer wrote it within the conflict window.
 */
export class WriteConflictError extends DomainError {
  readonly code = 'WRITE_CONFLICT';
  constructor(
    message: string,
    /** TOOL | GUIDELINE | KNOWLEDGE */
    readonly kind: string,
    /** Id of the entry's current version. */
    readonly currentVersionId: string,
    readonly currentVersion: number,
    path: string[] = [],
  ) {
    super(message, path);
  }
}

/** The caller may not do this (e.g. write app: or project: state without an elevated role). */
export class PermissionDeniedError extends DomainError {
  readonly code = 'FORBIDDEN';
}

/** A task cannot be done while tasks it depends on are not. */
export class UnmetDependenciesError extends DomainError {
  readonly code = 'DEPENDENCIES_NOT_DONE';
  constructor(
    message: string,
    /** Ids of the dependencies that are not done. */
    readonly blockingTaskIds: string[],
    path: string[] = [],
  ) {
    super(message, path);
  }
}

/** Who holds a lease (LeaseHeldError). */
export interface LeaseHolding {
  holder: string;
  mode: string;
  expiresAt: Date;
}

/** A checkout refused because others hold the resource in a mode that excludes it. */
export class LeaseHeldError extends DomainError {
  readonly code = 'LEASE_HELD';
  constructor(
    message: string,
    readonly holders: LeaseHolding[],
    path: string[] = [],
  ) {
    super(message, path);
  }
}

