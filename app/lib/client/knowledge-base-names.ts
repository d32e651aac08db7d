'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { KnowledgeBaseRecord } from './aah';
import { api } from './api';
import { keys } from './queries';

/** Creating, renaming and deleting knowledge bases (POST, PATCH, DELETE /api/knowledge-bases…). */

/** Creates knowledge base `name`: empty, or a copy of the one named `copyOf`. */
export function useCreateKnowledgeBase() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ name, copyOf }: { name: string; copyOf?: string }) => api<KnowledgeBaseRecord>('POST', '/api/knowledge-bases', copyOf ? { name, copyOf } : { name }),
    onSuccess: (created) => {
      client.setQueryData(keys.knowledgeBase(created.name), created);
      return client.invalidateQueries({ queryKey: keys.knowledgeBases, exact: true });
    },
  });
}

/** Renames knowledge base `from` to `to` (the crawl definitions naming it are renamed with it). */
export function useRenameKnowledgeBase() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ from, to }: { from: string; to: string }) => api<{ name: string; updatedAt: string; icds: number }>('PATCH', `/api/knowledge-bases/${encodeURIComponent(from)}`, { name: to }),
    onSuccess: (_renamed, { from }) => {
      client.removeQueries({ queryKey: keys.knowledgeBase(from), exact: true });
      void client.invalidateQueries({ queryKey: keys.icds });
      return client.invalidateQueries({ queryKey: keys.knowledgeBases, exact: true });
    },
  });
}

/** Deletes knowledge base `name` (refused while crawl definitions or live crawls use it). */
export function useDeleteKnowledgeBase() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api<null>('DELETE', `/api/knowledge-bases/${encodeURIComponent(name)}`),
    onSuccess: (_done, name) => {
      client.removeQueries({ queryKey: keys.knowledgeBase(name), exact: true });
      return client.invalidateQueries({ queryKey: keys.knowledgeBases, exact: true });
    },
  });
}
