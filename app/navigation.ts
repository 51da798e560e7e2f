import type { Operation } from '@/lib/services/access';

/**
 * The main navigation, in order: each screen's link and who sees it (`shownTo`: the operation the viewer must be
 * allowed; none: everybody, the screen itself says what it needs). A new screen is one line here.
 */
export const NAVIGATION: readonly { href: string; label: string; shownTo?: Operation }[] = [
  { href: '/', label: 'Ask' },
  { href: '/library', label: 'Library' },
  { href: '/answers', label: 'Answers' },
  { href: '/search', label: 'Find evidence' },
  { href: '/graph', label: 'Graph' },
  { href: '/evaluation/runs', label: 'Evaluation', shownTo: 'evaluations' },
  { href: '/grading', label: 'Grading', shownTo: 'grade' },
  { href: '/import', label: 'Import' },
  { href: '/admin/users', label: 'Users', shownTo: 'users' },
];
