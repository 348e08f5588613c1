// What the generated types refuse: each line below must fail to type-check (tsc fails on a
// directive expecting an error where there is none), so configurations are typed per question
// type rather than as an open object.
import type { components } from "./api";

type QuestionInput = components["schemas"]["QuestionInput"];

export const refused: QuestionInput[] = [
  // @ts-expect-error: nps has no steps
  { prompt: "x", type: "nps", configuration: { steps: 3 } },
  // @ts-expect-error: a rating's scale_type is one of four names
  { prompt: "x", type: "rating", configuration: { scale_type: "hearts" } },
  // @ts-expect-error: a matrix needs its rows and columns
  { prompt: "x", type: "matrix", configuration: { multiple: true } },
  // @ts-expect-error: no such question type
  { prompt: "x", type: "telepathy" },
  // @ts-expect-error: no such operator
  { prompt: "x", type: "text", condition: { field: "a", operator: "roughly", value: 1 } },
];
