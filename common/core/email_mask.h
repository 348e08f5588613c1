#pragma once
// Text shown to people who are not the workspace's (a shared report's quotes) with the email
// addresses in it replaced: a run of non-space characters holding an '@' followed, later in
// the run, by a '.' reads "[email]".

#include <string>
#include <string_view>

namespace feedback {

std::string maskEmails(std::string_view text);

}  // namespace feedback
