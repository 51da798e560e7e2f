'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type DragEvent } from 'react';
import type { ImportUploadResponse } from '@/app/api/import/contract';
import type { ImportFormats } from '@/lib/ingest/readers/registry';
import { RunStatus } from './run-status';

/** Drag-and-drop upload; the server stores the files, then imports them while this panel shows progress. */
export function ImportPanel({ maxUploadMb, formats }: { maxUploadMb: number; formats: ImportFormats }) {
  const [files, setFiles] = useState<File[]>([]);
  const [dragging, setDragging] = useState(false);
  const [uploadPct, setUploadPct] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [runId, setRunId] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const queryClient = useQueryClient();

  const add = (list: FileList | null) => {
    if (!list) return;
    setError(null);
    setFiles((prev) => [...prev, ...Array.from(list)]);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    add(e.dataTransfer.files);
  };
  const total = files.reduce((n, f) => n + f.size, 0);

  const upload = () => {
    if (!files.length) return;
    if (total > maxUploadMb * 1048576) {
      setError(`These files add up to ${(total / 1048576).toFixed(1)} MiB; the limit is ${maxUploadMb} MiB.`);
      return;
    }
    const form = new FormData();
    for (const f of files) form.append('files', f, f.name);
    // XMLHttpRequest rather than fetch: it reports upload progress.
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/import');
    xhr.upload.onprogress = (e) => e.lengthComputable && setUploadPct(Math.round((e.loaded / e.total) * 100));
    xhr.onerror = () => {
      setUploadPct(null);
      setError('The upload failed: the server could not be reached.');
    };
    xhr.onload = () => {
      setUploadPct(null);
      let body: Partial<ImportUploadResponse> & { error?: string } = {};
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON */
      }
      if (xhr.status >= 200 && xhr.status < 300 && body.runId) {
        setRunId(body.runId);
        setFiles([]);
        void queryClient.invalidateQueries({ queryKey: ['ingest-runs'] });
      } else {
        setError(body.error ?? `The upload failed (HTTP ${xhr.status}).`);
      }
    };
    setError(null);
    setUploadPct(0);
    xhr.send(form);
  };

  return (
    <div className="space-y-4">
      {/* biome-ignore lint/a11y/useSemanticElements: a drop zone holds block content and receives drops, which a <button> cannot */}
      <div
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        onClick={() => input.current?.click()}
        role="button"
        tabIndex={0}
        onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && input.current?.click()}
        data-testid="dropzone"
        className={`flex cursor-pointer flex-col items-center justify-center rounded-lg border-2 border-dashed p-10 text-center ${dragging ? 'border-teal-600 bg-teal-50' : 'border-slate-300 bg-white'}`}
      >
        <p className="font-medium">Drop files here or click to choose</p>
        <p className="mt-1 text-sm text-slate-600" data-testid="import-formats">
          {formats.labels.join(', ')} (each also gzipped) · up to {maxUploadMb} MiB
        </p>
        <input ref={input} type="file" multiple accept={formats.accept} className="hidden" data-testid="file-input" onChange={(e) => add(e.target.files)} />
      </div>

      {files.length > 0 ? (
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <ul className="space-y-1 text-sm" data-testid="selected-files">
            {files.map((f, i) => (
              <li key={`${f.name}-${i}`} className="flex justify-between gap-3">
                <span className="truncate">{f.name}</span>
                <span className="text-slate-500">{(f.size / 1024).toFixed(1)} KiB</span>
              </li>
            ))}
          </ul>
          <div className="mt-3 flex gap-3">
            <button
              type="button"
              onClick={upload}
              disabled={uploadPct !== null}
              className="rounded-md bg-teal-700 px-4 py-2 font-medium text-white hover:bg-teal-800 disabled:opacity-50"
            >
              {uploadPct !== null ? `Uploading ${uploadPct}%` : `Import ${files.length} ${files.length === 1 ? 'file' : 'files'}`}
            </button>
            <button type="button" onClick={() => setFiles([])} disabled={uploadPct !== null} className="rounded-md border border-slate-300 px-3 py-2 text-sm">
              Clear
            </button>
          </div>
        </div>
      ) : null}

      {error ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          {error}
        </p>
      ) : null}
      {runId ? <RunStatus runId={runId} /> : null}
    </div>
  );
}
