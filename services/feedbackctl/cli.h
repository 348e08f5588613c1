#pragma once
// Argument parsing for feedbackctl, separate from I/O so that it is unit-tested.

#include <optional>
#include <string>
#include <vector>

namespace feedback::ctl {

struct CreateWorkspaceCommand {
  std::string name;
  std::string plan = "free";
  std::string subdomain;
  std::optional<int> rate_limit;
  std::optional<int> link_quota;
  std::optional<int> retention_days;
};

// An override given on the command line: a number, or "plan" for the plan's own value.
struct Override {
  std::optional<int> value;
  bool plan_default = false;
};

struct SetPlanCommand {
  std::string workspace_uuid;
  std::string plan;
  std::optional<Override> rate_limit = {};
  std::optional<Override> link_quota = {};
  // --retention-days N|none: days responses are kept, or (nullopt inside) until deleted.
  std::optional<std::optional<int>> retention_days = {};
};

// A new key with every scope for an existing workspace.
struct CreateKeyCommand {
  std::string workspace_uuid;
  std::string name;  // empty: "Admin key"
};

struct Command {
  std::optional<CreateWorkspaceCommand> create_workspace;
  std::optional<SetPlanCommand> set_plan;
  std::optional<CreateKeyCommand> create_key;
  bool help = false;
};

// Throws std::invalid_argument with a message for the user on bad arguments.
Command parseArguments(const std::vector<std::string>& args);
extern const char* const kUsage;

}  // namespace feedback::ctl
