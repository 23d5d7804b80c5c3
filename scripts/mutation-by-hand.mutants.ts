/**
 * The by-hand mutants (scripts/mutation-by-hand.ts): each one exact text of a money or control
 * file, what it becomes, and the tests that must then fail. `find` must occur once in the file.
 */
export interface Mutant {
  id: string;
  file: string;
  find: string;
  replace: string;
  tests: string[];
}

const DISPUTES = ['test/modules/disputes/decided-after-defense.test.ts'];

export const MUTANTS: Mutant[] = [
  // Module-level: Stryker under isolate: false reports these survived without running them.
  { id: 'disputes/defended-decides-nothing', file: 'src/modules/disputes/state-machine.ts', find: "DEFENDED: ['ACCEPTED', 'REJECTED', 'CANCELLED']", replace: 'DEFENDED: []', tests: DISPUTES },
  { id: 'disputes/defended-never-accepted', file: 'src/modules/disputes/state-machine.ts', find: "DEFENDED: ['ACCEPTED', 'REJECTED', 'CANCELLED']", replace: "DEFENDED: ['REJECTED', 'CANCELLED']", tests: DISPUTES },
  { id: 'disputes/decided-moves-back', file: 'src/modules/disputes/state-machine.ts', find: 'REJECTED: [],', replace: "REJECTED: ['OPEN'],", tests: DISPUTES },
  { id: 'disputes/is-resolved-always', file: 'src/modules/disputes/state-machine.ts', find: 'NEXT[status].length === 0', replace: 'true', tests: DISPUTES },
  { id: 'disputes/unresolved-without-defended', file: 'src/modules/disputes/state-machine.ts', find: "UNRESOLVED: readonly DisputeStatus[] = ['OPEN', 'DEFENDED']", replace: "UNRESOLVED: readonly DisputeStatus[] = ['OPEN']", tests: DISPUTES },
];
