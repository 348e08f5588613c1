// A client generated from the served /v1/openapi.json (openapi-typescript + openapi-fetch)
// creates a link with one question of each of the 32 types, answers it through the public
// intake, and reads the response and the summary back. It must type-check under tsc --strict
// without a cast: every configuration below is checked against its type's schema.
import createClient from "openapi-fetch";
import type { components, paths } from "./api";

type QuestionInput = components["schemas"]["QuestionInput"];
// An answer as a response read through the API holds it.
type ReadAnswer = NonNullable<
  Awaited<ReturnType<typeof api.GET<"/v1/links/{link_uuid}/responses/{response_uuid}/", {
    params: { path: { link_uuid: string; response_uuid: string } };
  }>>>["data"]
>["answers"][number];

// Node's globals, declared here rather than installed (@types/node).
declare const process: { env: Record<string, string | undefined>; exit(code: number): never };

const origin = process.env.ORIGIN ?? "";
const intakeOrigin = process.env.INTAKE_ORIGIN ?? ""; // the workspace's own host
const key = process.env.API_KEY ?? "";

const api = createClient<paths>({ baseUrl: origin, headers: { Authorization: `Bearer ${key}` } });
const intake = createClient<paths>({ baseUrl: intakeOrigin });

const rows = [{ id: "speed", label: "Speed" }, { id: "price", label: "Price" }];
const columns = [{ id: "ok", label: "OK" }, { id: "good", label: "Good" }];

export const questions: QuestionInput[] = [
  { prompt: "Tell us", field_key: "voice_q", configuration: { max_duration: 60, enable_ai_evaluation: false } },
  { prompt: "Voice or text", type: "voice_text_fallback", field_key: "vtf_q", configuration: { max_characters: 500 } },
  { prompt: "Comments", type: "text", field_key: "text_q" },
  { prompt: "Colour", type: "multiple_choice", field_key: "mc_q", configuration: { options: ["red", "green"], allow_multiple: false } },
  { prompt: "How many", type: "number", field_key: "num_q", configuration: { min: 0, max: 10, step: 1 } },
  { prompt: "Recommend", type: "rating", field_key: "rating_q", configuration: { scale_type: "nps" } },
  { prompt: "Card", type: "image_choice", field_key: "card_q",
    configuration: { cards: [{ id: "c1", label: "Cat", media_url: "https://example.com/cat.png", media_type: "image" }] } },
  { prompt: "Email", type: "email", field_key: "email_q" },
  { prompt: "When", type: "date", field_key: "date_q" },
  { prompt: "Yes or no", type: "yes_no", field_key: "yn_q" },
  { prompt: "File", type: "file_upload", field_key: "file_q", configuration: { allowed_types: ["application/pdf"], max_size_mb: 5 } },
  { prompt: "Total", type: "calculated", field_key: "calc_q", configuration: { formula: "num_q * 2" } },
  { prompt: "About", type: "help_block", field_key: "help_q", configuration: { content: "Thanks, {{text_q}}" } },
  { prompt: "Story", type: "long_text", field_key: "story_q", configuration: { max_characters: 2000 } },
  { prompt: "Phone", type: "phone_number", field_key: "phone_q", configuration: { default_country: "US" } },
  { prompt: "Website", type: "url", field_key: "url_q" },
  { prompt: "Plan", type: "dropdown", field_key: "plan_q", configuration: { options: ["free", "pro"], searchable: true } },
  { prompt: "NPS", type: "nps", field_key: "nps_q", configuration: { lower_label: "No", upper_label: "Yes" } },
  { prompt: "Opinion", type: "opinion_scale", field_key: "op_q", configuration: { steps: 7, start_at_one: false, labels: { left: "Bad" } } },
  { prompt: "CSAT", type: "csat", field_key: "csat_q", configuration: { labels: ["a", "b", "c", "d", "e"] } },
  { prompt: "Effort", type: "ces", field_key: "ces_q" },
  { prompt: "Budget", type: "slider", field_key: "slider_q", configuration: { min: 0, max: 1000, step: 50, range: true, unit: "EUR" } },
  { prompt: "Grid", type: "matrix", field_key: "grid_q", configuration: { rows, columns, multiple: false, all_rows_required: true } },
  { prompt: "Rank", type: "ranking", field_key: "rank_q", configuration: { options: ["a", "b", "c"], rank_all: true } },
  { prompt: "Contact", type: "contact_info", field_key: "contact_q", configuration: { fields: { email: { required: true }, company: { show: false } } } },
  { prompt: "Address", type: "address", field_key: "addr_q", configuration: { fields: { line2: { show: false } } } },
  { prompt: "Terms", type: "consent", field_key: "terms_q", configuration: { text: "I agree.", link_url: "https://example.com/terms" } },
  { prompt: "Sign", type: "signature", field_key: "sig_q", configuration: { max_size_kb: 128 } },
  { prompt: "Time", type: "time", field_key: "time_q", configuration: { min: "08:00", max: "18:00" } },
  { prompt: "Moment", type: "datetime", field_key: "dt_q" },
  { prompt: "Trip", type: "date_range", field_key: "trip_q", configuration: { min_date: "2024-01-01" } },
  { prompt: "Source", type: "hidden_field", field_key: "src_q", configuration: { default_value: "direct" },
    condition: { any: [{ field: "num_q", operator: "greater_than_or_equal", value: 0 }, { field: "contact_q.email", operator: "is_answered" }] } },
];

const given: Record<string, unknown> = {
  text_q: "Great", mc_q: "green", num_q: 4, rating_q: 9, card_q: "c1", email_q: "a@example.com", date_q: "2024-02-29",
  yn_q: true, story_q: "A long story", phone_q: "(415) 555-0123", url_q: "https://example.com", plan_q: "pro", nps_q: 10,
  op_q: 0, csat_q: 5, ces_q: 7, slider_q: [100, 450], grid_q: { speed: "ok", price: "good" }, rank_q: ["b", "a", "c"],
  contact_q: { email: "ada@example.com", phone: "+44 7400 123456" }, addr_q: { line1: "1 Main St", city: "York", country: "gb" },
  terms_q: true, time_q: "09:30", dt_q: "2024-03-10T12:30:00+02:00", trip_q: { start: "2024-07-01", end: "2024-07-02" },
  vtf_q: "typed", voice_q: "typed too", src_q: "newsletter",
};

function fail(message: string): never {
  throw new Error(message);
}

// A value's type narrows with its answer's response_type.
function describe(answer: ReadAnswer): string {
  switch (answer.response_type) {
    case "nps":
      return `nps ${answer.value ?? "-"} of ${answer.rating_details?.max_value ?? "?"}`;
    case "matrix":
      return `matrix ${Object.keys(answer.value ?? {}).join(",")}`;
    case "date_range":
      return `trip ${answer.value?.start ?? ""}..${answer.value?.end ?? ""}`;
    case "contact_info":
      return `contact ${answer.value?.phone ?? ""}`;
    default:
      return answer.response_type;
  }
}


async function main(): Promise<void> {
  const created = await api.POST("/v1/links/", { body: { name: "Typed client", slug: "typed", questions } });
  const link = created.data ?? fail(`create: ${JSON.stringify(created.error)}`);
  if (link.questions.length !== 32) fail(`32 questions, got ${link.questions.length}`);
  const sent = await intake.POST("/i/{slug}/submit/", { params: { path: { slug: "typed" } }, body: { answers: given } });
  const record = sent.data ?? fail(`submit: ${JSON.stringify(sent.error)}`);
  const read = await api.GET("/v1/links/{link_uuid}/responses/{response_uuid}/", {
    params: { path: { link_uuid: link.uuid, response_uuid: record.uuid } },
  });
  const response = read.data ?? fail(`read: ${JSON.stringify(read.error)}`);
  const byKey = new Map<string, ReadAnswer>();
  for (const answer of response.answers) byKey.set(answer.field_key, answer);
  const phone = byKey.get("phone_q");
  if (phone?.response_type !== "phone_number" || phone.value !== "+14155550123") fail(`phone: ${JSON.stringify(phone)}`);
  const when = byKey.get("dt_q");
  if (when?.response_type !== "datetime" || when.value !== "2024-03-10T10:30:00.000000Z") fail(`datetime: ${JSON.stringify(when)}`);
  for (const answer of response.answers) console.log(`  ${describe(answer)}`);
  const summary = await api.GET("/v1/links/{link_uuid}/summary/", { params: { path: { link_uuid: link.uuid } } });
  const stats = summary.data ?? fail(`summary: ${JSON.stringify(summary.error)}`);
  if (stats.response_count !== 1) fail(`summary counts ${stats.response_count}`);
  console.log(`typed client: created ${link.questions.length} questions, answered ${response.answers.length}, summary of ${stats.questions.length}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
