#include "services/feedbackctl/cli.h"

#include <stdexcept>
#include <string>

#include "common/core/plans.h"

namespace feedback::ctl {

const char* const kUsage =
    "usage:\n"
    "  feedbackctl workspace create --name NAME [--plan free|pro|enterprise]\n"
    "                               [--subdomain S] [--rate-limit N] [--link-quota N]\n"
    "                               [--retention-days N]\n"
    "  feedbackctl workspace set-plan WORKSPACE_UUID free|pro|enterprise\n"
    "                               [--rate-limit N|plan] [--link-quota N|plan]\n"
    "                               [--retention-days N|none]\n"
    "  feedbackctl workspace create-key WORKSPACE_UUID [--name NAME]\n"
    "Overrides not given stay as they are; 'plan' returns to the plan's own value. Every\n"
    "gateway applies a new rate from the next request. With a retention, responses older\n"
    "than N days (by submission, or start while in progress) are erased within an hour;\n"
    "'none' keeps them until deleted. create-key prints a new key with every scope (say,\n"
    "responses:write for a workspace whose keys all predate it); it is shown only once.\n"
    "Talks gRPC to the tokens service at $TOKENS_ADDR (default 127.0.0.1:50051) and prints\n"
    "one JSON object.\n";

namespace {

int parseCount(const std::string& flag, const std::string& text) {
  std::size_t used = 0;
  int value = 0;
  try {
    value = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || value < 0) {
    throw std::invalid_argument(flag + " needs a non-negative integer, got '" + text + "'");
  }
  return value;
}

int parseDays(const std::string& flag, const std::string& text) {
  const int days = parseCount(flag, text);
  if (days < 1 || days > plans::kMaxRetentionDays) {
    throw std::invalid_argument(flag + " needs 1 to " + std::to_string(plans::kMaxRetentionDays) +
                                " days, got '" + text + "'");
  }
  return days;
}

void requirePlan(const std::string& plan) {
  if (plan != "free" && plan != "pro" && plan != "enterprise") {
    throw std::invalid_argument("plan must be free, pro or enterprise, got '" + plan + "'");
  }
}

}  // namespace

Command parseArguments(const std::vector<std::string>& args) {
  Command command;
  if (args.empty() || args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
    command.help = true;
    return command;
  }
  if (args[0] != "workspace" || args.size() < 2) {
    throw std::invalid_argument("unknown command '" + args[0] + "'");
  }
  if (args[1] == "create") {
    CreateWorkspaceCommand create;
    bool has_name = false;
    for (std::size_t i = 2; i < args.size(); ++i) {
      const std::string& flag = args[i];
      if (i + 1 >= args.size()) throw std::invalid_argument(flag + " needs a value");
      const std::string& value = args[++i];
      if (flag == "--name") {
        create.name = value;
        has_name = true;
      } else if (flag == "--plan") {
        requirePlan(value);
        create.plan = value;
      } else if (flag == "--subdomain") {
        create.subdomain = value;
      } else if (flag == "--rate-limit") {
        create.rate_limit = parseCount(flag, value);
      } else if (flag == "--link-quota") {
        create.link_quota = parseCount(flag, value);
      } else if (flag == "--retention-days") {
        create.retention_days = parseDays(flag, value);
      } else {
        throw std::invalid_argument("unknown option '" + flag + "'");
      }
    }
    if (!has_name) throw std::invalid_argument("workspace create needs --name");
    command.create_workspace = create;
    return command;
  }
  if (args[1] == "set-plan") {
    if (args.size() < 4 || args[2].rfind("--", 0) == 0 || args[3].rfind("--", 0) == 0) {
      throw std::invalid_argument("workspace set-plan needs UUID and PLAN");
    }
    requirePlan(args[3]);
    SetPlanCommand set{args[2], args[3]};
    for (std::size_t i = 4; i < args.size(); i += 2) {
      const std::string& flag = args[i];
      if (i + 1 >= args.size()) throw std::invalid_argument(flag + " needs a value");
      const std::string& value = args[i + 1];
      if (flag == "--retention-days") {
        set.retention_days =
            value == "none" ? std::optional<int>() : std::optional<int>(parseDays(flag, value));
        continue;
      }
      Override given;
      if (value == "plan") {
        given.plan_default = true;
      } else {
        given.value = parseCount(flag, value);
      }
      if (flag == "--rate-limit") {
        set.rate_limit = given;
      } else if (flag == "--link-quota") {
        set.link_quota = given;
      } else {
        throw std::invalid_argument("unknown option '" + flag + "'");
      }
    }
    command.set_plan = set;
    return command;
  }
  if (args[1] == "create-key") {
    if (args.size() < 3 || args[2].rfind("--", 0) == 0) {
      throw std::invalid_argument("workspace create-key needs WORKSPACE_UUID");
    }
    CreateKeyCommand create{args[2], ""};
    for (std::size_t i = 3; i < args.size(); i += 2) {
      if (args[i] != "--name") throw std::invalid_argument("unknown option '" + args[i] + "'");
      if (i + 1 >= args.size()) throw std::invalid_argument("--name needs a value");
      create.name = args[i + 1];
    }
    command.create_key = create;
    return command;
  }
  throw std::invalid_argument("unknown workspace command '" + args[1] + "'");
}

}  // namespace feedback::ctl
