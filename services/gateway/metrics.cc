#include "services/gateway/metrics.h"

namespace feedback::gateway {

void Metrics::countResponse(int status) {
  int index = status / 100;
  if (index >= 1 && index <= 5) ++by_class_[index];
}

std::string Metrics::render(std::size_t open_connections) const {
  std::string out;
  out += "# TYPE gateway_http_responses_total counter\n";
  for (int i = 1; i <= 5; ++i) {
    out += "gateway_http_responses_total{class=\"" + std::to_string(i) + "xx\"} " +
           std::to_string(by_class_[i].load()) + "\n";
  }
  out += "# TYPE gateway_key_cache_total counter\n";
  out += "gateway_key_cache_total{outcome=\"hit\"} " + std::to_string(key_cache_hits) + "\n";
  out += "gateway_key_cache_total{outcome=\"miss\"} " + std::to_string(key_cache_misses) + "\n";
  out += "gateway_key_cache_total{outcome=\"refused_without_lookup\"} " +
         std::to_string(key_lookups_skipped) + "\n";
  out +=
      "gateway_key_cache_total{outcome=\"bypassed\"} " + std::to_string(key_cache_bypassed) + "\n";
  out += "gateway_key_cache_total{outcome=\"fill_failed\"} " +
         std::to_string(key_cache_fill_failures) + "\n";
  out += "# TYPE gateway_link_cache_total counter\n";
  out += "gateway_link_cache_total{outcome=\"hit\"} " + std::to_string(link_cache_hits) + "\n";
  out += "gateway_link_cache_total{outcome=\"miss\"} " + std::to_string(link_cache_misses) + "\n";
  out += "gateway_link_cache_total{outcome=\"bypassed\"} " + std::to_string(link_cache_bypassed) +
         "\n";
  out += "# TYPE gateway_response_page_cache_total counter\n";
  out += "gateway_response_page_cache_total{outcome=\"hit\"} " +
         std::to_string(response_page_cache_hits) + "\n";
  out += "gateway_response_page_cache_total{outcome=\"miss\"} " +
         std::to_string(response_page_cache_misses) + "\n";
  out += "gateway_response_page_cache_total{outcome=\"bypassed\"} " +
         std::to_string(response_page_cache_bypassed) + "\n";
  out += "# TYPE gateway_rate_limit_decisions_total counter\n";
  auto decision = [&out](const char* source, const char* outcome, uint64_t value) {
    out += std::string("gateway_rate_limit_decisions_total{source=\"") + source + "\",outcome=\"" +
           outcome + "\"} " + std::to_string(value) + "\n";
  };
  decision("shared", "admitted", rate_admitted_shared);
  decision("shared", "limited", rate_limited_shared);
  decision("local", "admitted", rate_admitted_local);
  decision("local", "limited", rate_limited_local);
  decision("replica", "admitted", rate_admitted_replica);
  decision("replica", "limited", rate_limited_replica);
  decision("none", "unavailable", rate_unavailable);
  out += "# TYPE gateway_rate_limit_degraded gauge\n";
  out += "gateway_rate_limit_degraded " + std::to_string(rate_degraded) + "\n";
  out += "# TYPE gateway_idempotency_total counter\n";
  auto idempotency = [&out](const char* outcome, uint64_t value) {
    out += std::string("gateway_idempotency_total{outcome=\"") + outcome + "\"} " +
           std::to_string(value) + "\n";
  };
  idempotency("replayed", idempotency_replayed);
  idempotency("in_use", idempotency_in_use);
  idempotency("reused", idempotency_reused);
  idempotency("unavailable", idempotency_unavailable);
  idempotency("store_failed", idempotency_store_failures);
  out += "# TYPE gateway_open_connections gauge\n";
  out += "gateway_open_connections " + std::to_string(open_connections) + "\n";
  out += routes.render();
  return out;
}

}  // namespace feedback::gateway
