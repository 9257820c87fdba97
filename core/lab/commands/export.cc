// export DIR: write the learner's objects as clean manifests plus a README (issue 4); see
// core/lab/export.h for which objects and what is removed.
// No Go counterpart (the sandbox's bridge to a real cluster).

#include "core/kubectl/flags.h"
#include "core/kubectl/kubectl.h"
#include "core/lab/command.h"
#include "core/lab/export.h"

namespace lab {

using kubectl::JoinPath;
using kubectl::ParseFlags;
using kubectl::ResourceName;

CommandResult RunExport(CommandContext& ctx, const std::vector<std::string>& args) {
  auto flags = ParseFlags(args, {});
  if (!flags.ok()) return CommandResult::Error(flags.status().message());
  if (flags->positional.empty()) {
    return CommandResult::Error("error: export needs a directory: export DIR");
  }
  if (flags->positional.size() > 1) {
    return CommandResult::Error("error: Unexpected args: [" + flags->positional[1] + "]");
  }
  const std::string& dir = flags->positional[0];
  const std::string full = JoinPath(ctx.base_dir, dir);
  const std::vector<ExportedFile> files = ExportManifests(ctx.sim, dir);
  if (base::Status s = ctx.files.MakeDirectories(full); !s.ok()) {
    return CommandResult::Error(s.message());
  }
  CommandResult result;
  const std::vector<api::ObjectPtr> objects = LearnerCreatedObjects(ctx.sim);
  for (size_t i = 0; i < files.size(); ++i) {
    const ExportedFile& file = files[i];
    if (base::Status s = ctx.files.WriteFile(JoinPath(full, file.name), file.content); !s.ok()) {
      result.AddError(s.message());
      return result;
    }
    // ExportManifests returns one file per object in LearnerCreatedObjects' order, then README.md.
    if (i < objects.size()) {
      const api::KindInfo* kind = api::FindKindFor(api::ApiVersion(*objects[i]),
                                                   api::Kind(*objects[i]));
      const std::string what = kind != nullptr ? ResourceName(*kind) : api::Kind(*objects[i]);
      result.out += what + "/" + api::Name(*objects[i]) + " exported to " +
                    JoinPath(dir, file.name) + "\n";
    } else {
      result.out += "wrote " + JoinPath(dir, file.name) + " (how to run it on a real cluster)\n";
    }
  }
  return result;
}

}  // namespace lab
