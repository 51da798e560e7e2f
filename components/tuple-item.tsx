import Link from 'next/link';
import type { GraphTupleView } from '@/lib/graph/view';
import { paragraphHref } from '@/lib/evidence/model';

/** One graph tuple as the panels list it: subject, relation and object, its value, its source sentence, its paragraph. */
export function TupleItem({ t }: { t: GraphTupleView }) {
  return (
    <>
      <p>
        <span className="font-medium">{t.subject.label}</span> <span className="text-xs text-slate-500">{t.relation.replace(/_/g, ' ')}</span>{' '}
        <span className="font-medium">{t.object.label}</span>
        {t.value && <span className="text-slate-700"> · {t.value}</span>}
      </p>
      {t.sentence && <p className="mt-1 text-xs text-slate-600">“{t.sentence}”</p>}
      {t.paperId && (
        <Link href={paragraphHref(t.paperId, t.paragraphOrdinal)} className="text-xs text-teal-800 hover:underline">
          open paragraph
        </Link>
      )}
    </>
  );
}
