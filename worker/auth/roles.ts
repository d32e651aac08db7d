/**
 * Who may do what. Roles from the product brief: archivists design and run crawls, curators view
 * everything and annotate, managers export and delete; admin may do all of it and manage users.
 */
export const ROLES = ['archivist', 'curator', 'manager', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export type Permission =
  | 'view' // crawls, captures, logs, objects, coherence
  | 'design' // create and edit ICDs and knowledge bases
  | 'run' // start, pause, resume, stop crawls; scored-URL intake
  | 'annotate'
  | 'export'
  | 'delete'
  | 'manage-users';

const GRANTS: Record<Role, readonly Permission[]> = {
  archivist: ['view', 'design', 'run'],
  curator: ['view', 'annotate'],
  manager: ['view', 'export', 'delete'],
  admin: ['view', 'design', 'run', 'annotate', 'export', 'delete', 'manage-users'],
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** True when `role` grants `permission`. Unknown roles get nothing. */
export function can(role: string, permission: Permission): boolean {
  return isRole(role) && GRANTS[role].includes(permission);
}
