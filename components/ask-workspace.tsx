'use client';

import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, type UIMessage } from 'ai';
import Link from 'next/link';
import { useRef, useState } from 'react';
import type { Answer } from '@/lib/answer/types';
import { AnswerView } from './answer-view';
import { AnswerModeOptions, PipelineOptions } from './pipeline-options';

/** The `data-answer` part the answer route sends last: the stored answer and its id. */
type AskMessage = UIMessage<never, { answer: { id: string; answer: Answer } }>;

interface Settings {
  pipeline: string;
  mode: string;
}

/**
 * The ask screen: a question goes in, the evidence arrives first (as the stream's source parts), then the answer's
 * text as it is written, then the stored answer with its citations and verdicts. One question at a time; every
 * answer is kept and opens at its own URL. Enter asks, Shift+Enter starts a new line.
 */
export function AskWorkspace({
  pipelines,
  defaultPipeline,
  modelId,
}: {
  pipelines: { name: string; description: string }[];
  defaultPipeline: string;
  modelId: string | null;
}) {
  const [question, setQuestion] = useState('');
  const [settings, setSettings] = useState<Settings>({ pipeline: defaultPipeline, mode: 'auto' });
  // The transport is created once; it reads the settings of the moment a question is sent.
  const current = useRef(settings);
  current.current = settings;
  const asked = useRef<{ text: string; at: number } | null>(null);
  const [firstEvidenceMs, setFirstEvidenceMs] = useState<number | null>(null);
  const [transport] = useState(
    () =>
      new DefaultChatTransport<AskMessage>({
        api: '/api/answer',
        prepareSendMessagesRequest: ({ messages }) => {
          const last = messages.at(-1);
          const text = last?.parts.map((p) => (p.type === 'text' ? p.text : '')).join('') ?? '';
          return { body: { question: text, pipeline: current.current.pipeline, mode: current.current.mode } };
        },
      }),
  );
  const { messages, sendMessage, setMessages, status, error, stop } = useChat<AskMessage>({ transport });
  const reply = messages.find((m) => m.role === 'assistant');
  const sources = reply?.parts.filter((p) => p.type === 'source-document') ?? [];
  const text = reply?.parts.map((p) => (p.type === 'text' ? p.text : '')).join('') ?? '';
  const final = reply?.parts.find((p) => p.type === 'data-answer')?.data ?? null;
  const busy = status === 'submitted' || status === 'streaming';

  // Time from asking to the first evidence on screen, shown with the answer (the workspace's latency promise).
  if (sources.length > 0 && firstEvidenceMs === null && asked.current) setFirstEvidenceMs(Math.round(performance.now() - asked.current.at));

  const ask = (text: string) => {
    const q = text.trim();
    if (q.length < 3 || busy) return;
    asked.current = { text: q, at: performance.now() };
    setFirstEvidenceMs(null);
    setMessages([]);
    void sendMessage({ text: q });
  };

  return (
    <div className="space-y-4">
      <form
        aria-label="Ask a question"
        className="space-y-2 rounded-lg border border-slate-200 bg-white p-4"
        onSubmit={(e) => {
          e.preventDefault();
          ask(question);
        }}
      >
        <label htmlFor="workspace-question" className="block text-sm font-medium text-slate-700">
          Question
        </label>
        <textarea
          id="workspace-question"
          value={question}
          onChange={(e) => setQuestion(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              ask(question);
            }
          }}
          required
          minLength={3}
          maxLength={2000}
          rows={2}
          placeholder="Which paper reports a peak power density of 0.812 W cm−2 at 973 K?"
          className="w-full rounded border border-slate-300 px-3 py-2 text-sm"
          aria-describedby="workspace-keys"
        />
        <div className="flex flex-wrap items-center gap-3 text-sm text-slate-700">
          <label>
            Pipeline{' '}
            <select
              value={settings.pipeline}
              onChange={(e) => setSettings({ ...settings, pipeline: e.target.value })}
              className="rounded border border-slate-300 px-2 py-1"
              aria-label="Pipeline"
            >
              <PipelineOptions pipelines={pipelines} />
            </select>
          </label>
          <label>
            Answer{' '}
            <select
              value={settings.mode}
              onChange={(e) => setSettings({ ...settings, mode: e.target.value })}
              className="rounded border border-slate-300 px-2 py-1"
              aria-label="Answer mode"
            >
              <AnswerModeOptions modelId={modelId} />
            </select>
          </label>
          <span id="workspace-keys" className="text-xs text-slate-500">
            Enter asks · Shift+Enter new line
          </span>
          {busy ? (
            <button type="button" onClick={() => stop()} className="ml-auto rounded border border-slate-300 px-4 py-1.5 font-medium">
              Stop
            </button>
          ) : (
            <button type="submit" className="ml-auto rounded bg-teal-700 px-4 py-1.5 font-medium text-white">
              Ask
            </button>
          )}
        </div>
      </form>

      {status === 'submitted' && (
        <p role="status" className="text-sm text-slate-600">
          Retrieving evidence…
        </p>
      )}
      {error && (
        <div role="alert" className="flex items-center gap-3 rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">
          <span>The answer failed: {error.message}</span>
          {asked.current && (
            <button type="button" className="rounded border border-red-300 px-2 py-0.5" onClick={() => ask(asked.current!.text)}>
              Retry
            </button>
          )}
        </div>
      )}

      {reply && !final && (
        <section aria-label="Answer in progress" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4" aria-busy={busy}>
          {text ? (
            <p className="text-[15px] leading-relaxed" data-testid="streamed-text">
              {text}
            </p>
          ) : (
            <p role="status" className="text-sm text-slate-600">
              {sources.length ? `${sources.length} evidence items found; writing the answer…` : 'Retrieving evidence…'}
            </p>
          )}
          {sources.length > 0 && (
            <ol className="space-y-1 text-sm text-slate-700" data-testid="streamed-evidence" aria-label="Evidence found">
              {sources.map((s) => (
                <li key={s.sourceId}>{s.title}</li>
              ))}
            </ol>
          )}
        </section>
      )}

      {final && (
        <section aria-label="Answer" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 className="text-lg font-semibold">{asked.current?.text}</h2>
            <Link href={`/answers/${final.id}`} className="text-sm text-teal-800 hover:underline">
              Permanent link
            </Link>
          </div>
          {firstEvidenceMs !== null && (
            <p className="text-xs text-slate-500" data-testid="first-evidence">
              first evidence on screen after {firstEvidenceMs} ms
            </p>
          )}
          <AnswerView answer={final.answer} />
        </section>
      )}
    </div>
  );
}
