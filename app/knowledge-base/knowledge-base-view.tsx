'use client';
import { useMutation } from '@tanstack/react-query';
import { useRouter, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { EditConflictNotice } from '../components/edit-conflict-notice';
import { ErrorMessage } from '../components/error-message';
import { useKnowledgeBase, useKnowledgeBases, useSaveKnowledgeBase, type KnowledgeBaseRecord } from '../lib/client/aah';
import { editConflictOf, readAgain, useEditConflict } from '../lib/client/edit-conflict';
import { useLeaveGuard } from '../lib/client/leave-guard';
import { confirmLeave } from '../lib/client/unsaved-edits';
import { useCan } from '../lib/client/session';
import { AahTester } from './aah-tester';
import { AdaptedRules } from './adapted-rules';
import { CreateKnowledgeBase, RenameOrDeleteKnowledgeBase } from './kb-names';
import { XmlEditor } from './xml-editor';

/** The knowledge base of the Application-Aware Helper: edit the XML, try it on a page, review adapted rules. */
export function KnowledgeBaseView() {
  const params = useSearchParams();
  const router = useRouter();
  const list = useKnowledgeBases();
  const name = params.get('name') ?? list.data?.[0]?.name ?? null;
  const kb = useKnowledgeBase(name);
  const mayDesign = useCan('design');
  const open = (next: string | null) => router.replace(next ? `/knowledge-base?name=${encodeURIComponent(next)}` : '/knowledge-base');
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end gap-4">
        <h1 className="text-2xl font-bold">Knowledge base</h1>
        {list.data && list.data.length > 1 && (
          <div>
            <label htmlFor="kb-name" className="mb-1 block text-sm font-medium">Knowledge base</label>
            <select id="kb-name" className="input" value={name ?? ''} onChange={(e) => {
                // Another knowledge base replaces the editor: its unsaved edits would go without a word.
                if (confirmLeave()) open(e.target.value);
              }}>
              {list.data.map((k) => <option key={k.name} value={k.name}>{k.name}</option>)}
            </select>
          </div>
        )}
        <p className="text-sm text-slate-600">The format is described in <code>docs/knowledge-base.md</code>.</p>
      </div>
      {mayDesign && <CreateKnowledgeBase current={kb.data?.name ?? null} onCreated={open} />}
      <ErrorMessage error={list.error ?? kb.error} />
      {list.data && list.data.length === 0 && <p className="text-slate-600">No knowledge base stored.</p>}
      {kb.data && <Workbench key={kb.data.name} stored={kb.data} refetch={() => readAgain(kb.refetch)} onRenamed={open} onDeleted={() => open(null)} />}
      <AdaptedRules />
    </div>
  );
}

/** The editor of the knowledge base `stored` (as loaded) and its tester; `refetch` loads the stored one again. */
function Workbench({ stored, refetch, onRenamed, onDeleted }: {
  stored: KnowledgeBaseRecord; refetch: () => Promise<KnowledgeBaseRecord>; onRenamed: (to: string) => void; onDeleted: () => void;
}) {
  const { name } = stored;
  const [xml, setXml] = useState(stored.xml);
  const [savedXml, setSavedXml] = useState(stored.xml);
  // The stored version the text builds on (see EditBasis): the one loaded, then each one saved here.
  const [basedOn, setBasedOn] = useState(stored.updatedAt);
  useLeaveGuard(xml !== savedXml);
  const save = useSaveKnowledgeBase();
  const conflict = useEditConflict(basedOn);
  const saveXml = (version = basedOn) =>
    save.mutate(
      { name, xml, basedOn: version },
      {
        onSuccess: (saved) => {
          setSavedXml(xml);
          setBasedOn(saved.updatedAt);
        },
        onError: (error) => conflict.caught(error, {}),
      },
    );
  const reload = useMutation({
    mutationFn: refetch,
    onSuccess: (fresh) => {
      setXml(fresh.xml);
      setSavedXml(fresh.xml);
      setBasedOn(fresh.updatedAt);
    },
  });
  const mayDesign = useCan('design');
  const mayDelete = useCan('delete');
  return (
    <div className="grid gap-6 xl:grid-cols-2">
      <section aria-labelledby="kb-editor-title" className="card space-y-3">
        <h2 id="kb-editor-title" className="text-lg font-semibold">{name}</h2>
        {mayDesign && <RenameOrDeleteKnowledgeBase key={name} name={name} dirty={xml !== savedXml} mayDelete={mayDelete} onRenamed={onRenamed} onDeleted={onDeleted} />}
        <XmlEditor value={xml} onChange={setXml} readOnly={!mayDesign}>
          {(errors, pending) =>
            mayDesign && (
              <div className="flex flex-wrap items-center gap-3">
                <button
                  type="button"
                  className="btn btn-primary"
                  disabled={save.isPending || pending || errors.length > 0 || xml === savedXml}
                  onClick={() => saveXml()}
                  data-testid="save-kb"
                >
                  Save
                </button>
                {xml !== savedXml ? <span className="text-sm text-slate-700">Unsaved changes</span> : save.isSuccess && <span role="status" className="text-sm text-emerald-800">Saved.</span>}
                {errors.length > 0 && <span className="text-sm text-slate-700">Fix the errors to save.</span>}
                <EditConflictNotice what="knowledge base" conflict={conflict.shown} busy={save.isPending || reload.isPending} onReload={() => reload.mutate()} onOverwrite={(c) => saveXml(c.updatedAt)} />
                <ErrorMessage error={editConflictOf(save.error) ? null : save.error} />
                <ErrorMessage error={reload.error} />
              </div>
            )
          }
        </XmlEditor>
      </section>
      <AahTester xml={xml} />
    </div>
  );
}
