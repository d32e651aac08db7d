'use client';
import { useEffect, useRef } from 'react';
import { ErrorMessage } from '../../components/error-message';
import { formatBytes, useCaptureRecord } from '../../lib/client/queries';
import { Annotations } from './annotations';

/**
 * One capture as stored in its WARC file: the WARC header, the HTTP head and the payload (previewed
 * if textual). It opens below the table's pager, so it takes the focus (its heading) when it opens.
 */
export function CaptureRecordView({ crawlId, captureId, onClose }: { crawlId: number; captureId: number; onClose(): void }) {
  const record = useCaptureRecord(crawlId, captureId);
  const r = record.data;
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => title.current?.focus(), []);
  return (
    <section aria-labelledby="record-title" className="space-y-3 rounded border border-slate-300 p-3" data-testid="capture-record">
      <div className="flex flex-wrap items-baseline gap-3">
        <h3 id="record-title" ref={title} tabIndex={-1} className="font-semibold break-all">{r ? r.capture.url : 'Stored record'}</h3>
        {r && (
          <a className="link text-sm" href={`/api/crawls/${crawlId}/captures/${captureId}?payload=1`} data-testid="download-payload">
            Download the payload ({formatBytes(r.payloadBytes)}{r.payloadCut && ', its decoded first part'})
          </a>
        )}
        <button type="button" className="btn ml-auto" onClick={onClose}>Close</button>
      </div>
      {record.isPending && <p className="text-sm text-slate-600">Reading the WARC record…</p>}
      <ErrorMessage error={record.error} />
      {r && (
        <>
          {r.payloadCut && (
            <p className="text-sm text-amber-800" data-testid="payload-cut">
              The payload decodes to more than {formatBytes(r.payloadBytes)}: only its first {formatBytes(r.payloadBytes)} are decoded here. The WARC record
              keeps it as received.
            </p>
          )}
          <p className="text-xs text-slate-600">
            {r.capture.recordType} record at byte {r.capture.warcOffset} of <span className="font-mono">{r.capture.warcFile}</span>
          </p>
          <div className="grid gap-3 lg:grid-cols-2">
            <div>
              <h4 className="text-sm font-semibold">WARC header</h4>
              <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-all bg-slate-50 p-2 text-xs" data-testid="record-warc-headers">
                {r.warcHeaders.map(([name, value]) => `${name}: ${value}`).join('\n')}
              </pre>
            </div>
            <div>
              <h4 className="text-sm font-semibold">HTTP head</h4>
              <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-all bg-slate-50 p-2 text-xs" data-testid="record-http-head">{r.httpHead ?? '(none)'}</pre>
            </div>
          </div>
          <div>
            <h4 className="text-sm font-semibold">
              Payload {r.preview !== null && r.previewTruncated && '(the first 64 KB)'}
            </h4>
            {r.preview !== null ? (
              <pre className="max-h-96 overflow-auto whitespace-pre-wrap break-all bg-slate-50 p-2 text-xs" data-testid="record-preview">{r.preview}</pre>
            ) : (
              <p className="text-sm text-slate-600">
                {r.payloadBytes === 0 ? 'No payload stored in this record (a revisit refers to an earlier identical one).' : `${r.capture.mime ?? 'Untyped'} payload: download it to open it.`}
              </p>
            )}
          </div>
          <div>
            <h4 className="text-sm font-semibold">Annotations</h4>
            <Annotations crawlId={crawlId} captureId={captureId} />
          </div>
        </>
      )}
    </section>
  );
}
