// Why: the cause chain of a trace record in plain words (see why.h).

#include "core/lab/why.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>

#include "core/kubectl/kubectl.h"

namespace lab {

using kubectl::ResolveKind;
namespace {

using Event = sim::TraceEvent;

// WhyText is one text in both languages; Pick chooses.
struct WhyText {
  WhyLanguage lang;
  const std::string& Pick(const std::string& en, const std::string& zh) const {
    return lang == WhyLanguage::kChinese ? zh : en;
  }
  bool zh() const { return lang == WhyLanguage::kChinese; }
};

const Event& WhyAt(const sim::TraceLog& events, int64_t seq) {
  return events[static_cast<size_t>(seq - 1)];
}

int64_t WhyCauseOf(const Event& e) {
  const auto c = e.Field("cause");
  return c && c->is_int ? c->i : 0;
}

std::string WhyField(const Event& e, std::string_view key) { return e.FieldString(key); }

// WhyIsTrue reads a boolean field whether it is stored as the JSON boolean or as its text.
bool WhyIsTrue(const Event& e, std::string_view key) { return e.FieldString(key) == "true"; }

std::string WhyMillis(const Event& e, std::string_view key) {
  const auto v = e.Field(key);
  const int64_t ms = v && v->is_int ? v->i : std::atoll(std::string(v ? v->s : "0").c_str());
  return base::FormatDuration(ms * base::kMillisecond);
}

// WhyKindOfController is the kind a controller reconciles: its name is the kind in lower case.
std::string WhyKindOfController(const std::string& controller) {
  auto kind = ResolveKind(controller);
  return kind.ok() ? (*kind)->kind : controller;
}

// WhyOperatorName shortens an operator Pod's name to its Deployment's ("kuberay-operator" for
// kuberay-operator-6f748b9d77-8k677): the ReplicaSet hash and the Pod suffix tell a learner
// nothing here.
std::string WhyOperatorName(const std::string& pod) {
  const size_t last = pod.rfind('-');
  if (last == std::string::npos || last == 0) return pod;
  const size_t hash = pod.rfind('-', last - 1);
  if (hash == std::string::npos || hash == 0) return pod;
  const size_t suffix_len = pod.size() - last - 1, hash_len = last - hash - 1;
  if (suffix_len != 5 || hash_len < 5 || hash_len > 10) return pod;
  return pod.substr(0, hash);
}

// WhyWho names the user of an API request as a learner knows it.
std::string WhyWho(const std::string& user, const WhyText& w) {
  if (user == "kubernetes-admin") return w.Pick("you (kubernetes-admin)", "你（kubernetes-admin）");
  if (user.rfind("system:node:", 0) == 0) {
    return w.Pick("the kubelet on ", "节点 ") + user.substr(12) + w.Pick("", " 上的 kubelet");
  }
  if (user.rfind("system:serviceaccount:", 0) == 0) {
    const size_t colon = user.rfind(':');
    return user.substr(colon + 1);
  }
  if (user.rfind("system:", 0) == 0) return user.substr(7);
  return user;
}

// WhyVerb is an API verb as a past-tense action.
std::string WhyVerb(const std::string& verb, const WhyText& w) {
  if (verb == "create") return w.Pick("created", "创建了");
  if (verb == "update") return w.Pick("updated", "更新了");
  if (verb == "patch") return w.Pick("patched", "修改（patch）了");
  if (verb == "delete") return w.Pick("deleted", "删除了");
  if (verb == "deletecollection") return w.Pick("deleted a collection of", "批量删除了");
  if (verb == "get") return w.Pick("read", "读取了");
  if (verb == "list") return w.Pick("listed", "列出了");
  return verb;
}

bool WhyIsWrite(const std::string& verb) {
  return verb == "create" || verb == "update" || verb == "patch" || verb == "delete" ||
         verb == "deletecollection";
}

std::string WhyObjectName(const Event& e) {
  const std::string ns = WhyField(e, "namespace");
  return WhyField(e, "kind") + " " + (ns.empty() ? "" : ns + "/") + WhyField(e, "name");
}

// WhyRequestAction tells what an api.request did, without the actor: "created Service
// default/demo-head-svc", "updated the status of RayCluster default/demo"; a failed request says
// what it tried and the error.
std::string WhyRequestAction(const Event& e, const WhyText& w) {
  const std::string verb = WhyField(e, "verb");
  const std::string sub = WhyField(e, "subresource");
  const std::string object = WhyObjectName(e);
  std::string action;
  if (sub == "binding") {
    action = w.Pick("bound " + object + " to a node", "把 " + object + " 绑定到节点");
  } else if (sub == "status") {
    action = w.Pick(WhyVerb(verb, w) + " the status of " + object,
                    WhyVerb(verb, w) + " " + object + " 的 status");
  } else if (!sub.empty()) {
    action = w.Pick(WhyVerb(verb, w) + " " + object + "/" + sub,
                    WhyVerb(verb, w) + " " + object + "/" + sub);
  } else {
    action = WhyVerb(verb, w) + " " + object;
  }
  const auto code = e.Field("code");
  const int64_t http = code && code->is_int ? code->i : 0;
  if (http >= 400) {
    const std::string reason = base::Reason(base::CodeFromHttp(static_cast<int>(http)));
    action = w.Pick("tried to " + verb + " " + object + (sub.empty() ? "" : "/" + sub) +
                        ": " + std::to_string(http) + " " + reason,
                    "尝试 " + verb + " " + object + (sub.empty() ? "" : "/" + sub) + "，失败：" +
                        std::to_string(http) + " " + reason);
  }
  return action;
}

// WhyKubeletChange tells what a kubelet.pod record saw happen to the Pod.
std::string WhyKubeletChange(const Event& k, const WhyText& w) {
  const std::string pod = "Pod " + WhyField(k, "pod");
  const std::string phase = WhyField(k, "phase"), reason = WhyField(k, "reason");
  if (reason == "Ready") return w.Pick(pod + " became Ready", pod + " 变为 Ready");
  if (reason == "Started") {
    return w.Pick(pod + "'s containers started (phase Running)", pod + " 的容器启动（phase 为 Running）");
  }
  if (reason == "Pulled") return w.Pick(pod + "'s image was pulled", pod + " 的镜像拉取完成");
  if (reason == "ErrImagePull" || reason == "ImagePullBackOff") {
    return w.Pick(pod + " could not pull its image (" + reason + ")",
                  pod + " 拉取镜像失败（" + reason + "）");
  }
  if (reason == "Killing") return w.Pick(pod + " is being stopped", pod + " 正在停止");
  if (reason == "Deleted") {
    return w.Pick(pod + "'s containers stopped; the kubelet deletes it",
                  pod + " 的容器已停止，kubelet 删除它");
  }
  if (reason == "CrashLoopBackOff") {
    return w.Pick(pod + " waits in CrashLoopBackOff", pod + " 处于 CrashLoopBackOff 等待中");
  }
  if (phase == "Failed" || phase == "Succeeded") {
    return w.Pick(pod + "'s container exited (" + reason + "): phase " + phase,
                  pod + " 的容器退出（" + reason + "），phase 为 " + phase);
  }
  return w.Pick(pod + "'s container exited (" + reason + ")",
                pod + " 的容器退出（" + reason + "）");
}

// WhyReconcileNumber counts the reconciles of the same key by the same controller up to and
// including the reconcile.start at seq: "reconcile #7".
int64_t WhyReconcileNumber(const sim::TraceLog& events, int64_t start_seq) {
  const Event& start = WhyAt(events, start_seq);
  const std::string_view controller = start.FieldText("controller");
  const std::string_view key = start.FieldText("key");
  int64_t n = 0;
  for (int64_t s = 1; s <= start_seq; ++s) {
    const Event& e = WhyAt(events, s);
    if (e.type == "reconcile.start" && e.FieldText("key") == key &&
        e.FieldText("controller") == controller) {
      ++n;
    }
  }
  return n;
}

// WhyReconcileOf returns the reconcile.start a queue.get, reconcile.start or reconcile.end
// belongs to (0 when seq is none of these).
int64_t WhyReconcileOf(const sim::TraceLog& events, int64_t seq) {
  const Event& e = WhyAt(events, seq);
  if (e.type == "reconcile.start") return seq;
  if (e.type == "reconcile.end") {
    const int64_t c = WhyCauseOf(e);
    return c > 0 && c < seq && WhyAt(events, c).type == "reconcile.start" ? c : 0;
  }
  if (e.type == "queue.get") {
    // reconcile.start follows its queue.get at once (same worker, same instant).
    const int64_t next = seq + 1;
    if (next <= static_cast<int64_t>(events.size()) &&
        WhyAt(events, next).type == "reconcile.start" && WhyCauseOf(WhyAt(events, next)) == seq) {
      return next;
    }
  }
  return 0;
}

class WhyWriter {
 public:
  WhyWriter(const sim::TraceLog& events, WhyLanguage lang) : events_(events), w_{lang} {}

  WhyChain Explain(int64_t seq);

 private:
  // Ancestors returns the chain from its root to seq (root first).
  std::vector<int64_t> Ancestors(int64_t seq) const;
  bool IsRoot(const Event& e, bool is_target) const;
  // LinkText tells record seq as a link of the chain (`first`: it is the root).
  std::string LinkText(int64_t seq, bool first) const;
  std::string RootTimerText(const Event& e) const;
  std::string ReconcileText(int64_t start_seq, bool first) const;
  std::string EndText(int64_t end_seq) const;
  // Effects appends what the reconcile that started at start_seq did.
  void Effects(int64_t start_seq, std::vector<WhyLine>* lines) const;
  std::string Heading(int64_t seq, WhyRoot root) const;

  const sim::TraceLog& events_;
  WhyText w_;
};

bool WhyWriter::IsRoot(const Event& e, bool is_target) const {
  if (WhyCauseOf(e) <= 0) return true;
  if (e.type == "kubelet.pod" || e.type == "informer.resync") return true;
  // A timer is the root of what it readies; asked about itself, its cause (the reconcile that
  // set it) is the answer.
  if (!is_target && (e.type == "queue.add_after" || e.type == "queue.add_rate_limited")) return true;
  return false;
}

std::vector<int64_t> WhyWriter::Ancestors(int64_t seq) const {
  std::vector<int64_t> path = {seq};
  // Causes point strictly backwards, so this ends within seq iterations.
  for (int64_t s = seq; !IsRoot(WhyAt(events_, s), s == seq);) {
    const int64_t c = WhyCauseOf(WhyAt(events_, s));
    if (c <= 0 || c >= s) break;
    path.push_back(c);
    s = c;
  }
  std::reverse(path.begin(), path.end());
  return path;
}

std::string WhyWriter::RootTimerText(const Event& e) const {
  const int64_t end = WhyCauseOf(e);
  const bool from_end = end > 0 && WhyAt(events_, end).type == "reconcile.end";
  const int64_t start = from_end ? WhyReconcileOf(events_, end) : 0;
  const std::string key = WhyField(e, "key");
  const std::string which =
      start > 0 ? w_.Pick("reconcile #" + std::to_string(WhyReconcileNumber(events_, start)) +
                              " of " + key + " (seq " + std::to_string(end) + ")",
                          key + " 的第 " + std::to_string(WhyReconcileNumber(events_, start)) +
                              " 次协调（seq " + std::to_string(end) + "）")
                : key;
  const std::string d = WhyMillis(e, "delayMs");
  if (e.type == "queue.add_after") {
    return w_.Pick("timer: " + which + " returned RequeueAfter " + d,
                   "定时器：" + which + " 返回 RequeueAfter " + d);
  }
  const std::string error = from_end ? WhyField(WhyAt(events_, end), "error") : "";
  const std::string requeues = WhyField(e, "requeues");
  return w_.Pick("timer: " + which + (error.empty() ? " asked to be requeued" : " failed: " + error) +
                     "; the rate limiter waits " + d + " (requeue " + requeues + ")",
                 "定时器：" + which + (error.empty() ? "要求重新入队" : "失败：" + error) +
                     "；限速器等待 " + d + "（第 " + requeues + " 次重新入队）");
}

std::string WhyWriter::ReconcileText(int64_t start_seq, bool first) const {
  const Event& e = WhyAt(events_, start_seq);
  const std::string n = std::to_string(WhyReconcileNumber(events_, start_seq));
  const std::string controller = WhyField(e, "controller"), key = WhyField(e, "key");
  const std::string worker = WhyField(e, "worker");
  const std::string arrow = first ? "" : "→ ";
  return w_.Pick(arrow + controller + " reconcile #" + n + " of " + key + " by worker " + worker,
                 arrow + "worker " + worker + " 执行 " + controller + " 对 " + key + " 的第 " + n +
                     " 次协调（Reconcile）");
}

std::string WhyWriter::EndText(int64_t end_seq) const {
  const Event& e = WhyAt(events_, end_seq);
  const std::string result = WhyField(e, "result"), error = WhyField(e, "error");
  // What the controller did with the result: the next add of the key, caused by this end.
  std::string next;
  for (int64_t s = end_seq + 1; s <= static_cast<int64_t>(events_.size()) && s <= end_seq + 8;
       ++s) {
    const Event& n = WhyAt(events_, s);
    if (WhyCauseOf(n) != end_seq) continue;
    if (n.type == "queue.add_after") {
      next = w_.Pick(": the key waits " + WhyMillis(n, "delayMs") + " in the queue",
                     "：key 在队列中等待 " + WhyMillis(n, "delayMs"));
    } else if (n.type == "queue.add_rate_limited") {
      next = w_.Pick(": the rate limiter retries it in " + WhyMillis(n, "delayMs") + " (requeue " +
                         WhyField(n, "requeues") + ")",
                     "：限速器在 " + WhyMillis(n, "delayMs") + " 后重试（第 " +
                         WhyField(n, "requeues") + " 次重新入队）");
    }
  }
  if (result == "success") {
    return w_.Pick("→ returned success: nothing more until the next event",
                   "→ 返回成功：直到下一个事件之前不再协调");
  }
  if (result == "requeue_after") {
    return w_.Pick("→ returned RequeueAfter " + WhyMillis(e, "requeueAfterMs") + next,
                   "→ 返回 RequeueAfter " + WhyMillis(e, "requeueAfterMs") + next);
  }
  if (result == "requeue") return w_.Pick("→ returned Requeue" + next, "→ 返回 Requeue" + next);
  if (result == "terminal_error") {
    return w_.Pick("→ returned a terminal error: " + error + " (not retried)",
                   "→ 返回终止性错误：" + error + "（不再重试）");
  }
  return w_.Pick("→ returned an error: " + error + next, "→ 返回错误：" + error + next);
}

std::string WhyWriter::LinkText(int64_t seq, bool first) const {
  const Event& e = WhyAt(events_, seq);
  const std::string_view type = e.type;
  const std::string arrow = first ? "" : "→ ";
  const bool learner = WhyCauseOf(e) <= 0;
  if (type == "api.request") {
    const std::string user = WhyField(e, "user");
    if (first && learner && user == "kubernetes-admin") {
      return w_.Pick("your command " + WhyRequestAction(e, w_),
                     "你的命令" + WhyRequestAction(e, w_));
    }
    // Inside a reconcile the actor is the reconcile itself.
    const int64_t c = WhyCauseOf(e);
    if (!first && c > 0 && WhyAt(events_, c).type == "reconcile.start") {
      return arrow + WhyRequestAction(e, w_);
    }
    return arrow + WhyWho(user, w_) + (w_.zh() ? "" : " ") + WhyRequestAction(e, w_);
  }
  if (type == "kubelet.pod") {
    return arrow + WhyKubeletChange(e, w_) + w_.Pick(" (kubelet on " + WhyField(e, "node") + ")",
                                                     "（" + WhyField(e, "node") + " 上的 kubelet）");
  }
  if (type == "watch.event") {
    const std::string watcher = WhyField(e, "watcher");
    const size_t slash = watcher.find('/');
    const std::string who = WhyOperatorName(slash == std::string::npos ? watcher : watcher.substr(0, slash));
    return arrow + w_.Pick(who + "'s " + WhyField(e, "kind") + " informer got the " +
                               WhyField(e, "eventType") + " event (resourceVersion " +
                               WhyField(e, "resourceVersion") + ")",
                           who + " 的 " + WhyField(e, "kind") + " informer 收到 " +
                               WhyField(e, "eventType") + " 事件（resourceVersion " +
                               WhyField(e, "resourceVersion") + "）");
  }
  if (type == "informer.pop") {
    const std::string informer = WhyField(e, "informer");
    const size_t slash = informer.find('/');
    const std::string who =
        WhyOperatorName(slash == std::string::npos ? informer : informer.substr(0, slash));
    return arrow + w_.Pick(who + "'s " + WhyField(e, "kind") + " informer popped " +
                               WhyField(e, "key") + " from its DeltaFIFO (" +
                               WhyField(e, "deltas") + ")",
                           who + " 的 " + WhyField(e, "kind") + " informer 从 DeltaFIFO 取出 " +
                               WhyField(e, "key") + "（" + WhyField(e, "deltas") + "）");
  }
  if (type == "predicate.eval") {
    const std::string p = WhyField(e, "predicate"), watch = WhyField(e, "watch");
    const std::string ev = WhyField(e, "eventType");
    if (WhyIsTrue(e, "result")) {
      return arrow + w_.Pick("predicate " + p + " on " + watch + " let the " + ev + " event through",
                             watch + " 上的 predicate " + p + " 放行了 " + ev + " 事件");
    }
    return arrow + w_.Pick("predicate " + p + " on " + watch + " filtered out the " + ev +
                               " event: it stops here, nothing is enqueued",
                           watch + " 上的 predicate " + p + " 过滤掉了 " + ev +
                               " 事件：到此为止，不会入队");
  }
  if (type == "handler.enqueue") {
    const std::string handler = WhyField(e, "handler"), key = WhyField(e, "key");
    const std::string kind = WhyKindOfController(WhyField(e, "controller"));
    if (handler == "EnqueueRequestForOwner") {
      return arrow + w_.Pick("owner handler mapped it to " + kind + " " + key + " (" + handler + ")",
                             "owner handler 沿 ownerReference 找到 " + kind + " " + key + "（" +
                                 handler + "）");
    }
    if (handler == "EnqueueRequestForObject") {
      return arrow + w_.Pick("the For handler enqueued the object's own key " + key + " (" +
                                 handler + ")",
                             "For 的 handler 把对象自己的 key " + key + " 入队（" + handler + "）");
    }
    return arrow + w_.Pick("a map function mapped it to " + kind + " " + key + " (" + handler + ")",
                           "map 函数把它映射到 " + kind + " " + key + "（" + handler + "）");
  }
  if (type == "queue.add") {
    const std::string outcome = WhyField(e, "outcome"), controller = WhyField(e, "controller");
    const int64_t c = WhyCauseOf(e);
    const std::string_view cause_type = c > 0 ? WhyAt(events_, c).type : std::string_view();
    if (cause_type == "queue.add_after" || cause_type == "queue.add_rate_limited") {
      return arrow + w_.Pick(WhyMillis(WhyAt(events_, c), "delayMs") +
                                 " later the timer fired: the key is ready in the " + controller +
                                 " queue" + (outcome == "queued" ? "" : " (" + outcome + ")"),
                             WhyMillis(WhyAt(events_, c), "delayMs") + " 后定时器到期：key 在 " +
                                 controller + " 工作队列中就绪" +
                                 (outcome == "queued" ? "" : "（" + outcome + "）"));
    }
    if (outcome == "coalesced") {
      return arrow + w_.Pick("added to the " + controller +
                                 " queue (coalesced with a waiting add: the key was already queued)",
                             "入队 " + controller + " 工作队列（与已在等待的条目合并去重：该 key 已在队列中）");
    }
    if (outcome == "dirty") {
      return arrow + w_.Pick("added to the " + controller +
                                 " queue while the key was being reconciled: marked dirty, it "
                                 "runs again after Done",
                             "入队 " + controller + " 工作队列时该 key 正在协调：标记为 dirty，Done 之后再处理一次");
    }
    return arrow + w_.Pick("added to the " + controller + " queue (a new entry, ready for a worker)",
                           "入队 " + controller + " 工作队列（新条目，等待 worker 处理）");
  }
  if (type == "queue.add_after" || type == "queue.add_rate_limited") {
    if (first) return RootTimerText(e);
    if (type == "queue.add_after") {
      return arrow + w_.Pick("back in the queue after " + WhyMillis(e, "delayMs") +
                                 " (RequeueAfter: Forget, then AddAfter)",
                             WhyMillis(e, "delayMs") + " 后重新入队（RequeueAfter：先 Forget，再 AddAfter）");
    }
    return arrow + w_.Pick("the rate limiter retries it in " + WhyMillis(e, "delayMs") +
                               " (requeue " + WhyField(e, "requeues") + ")",
                           "限速器在 " + WhyMillis(e, "delayMs") + " 后重试（第 " +
                               WhyField(e, "requeues") + " 次重新入队）");
  }
  if (type == "queue.get") {
    return arrow + w_.Pick("worker " + WhyField(e, "worker") + " took " + WhyField(e, "key") +
                               " from the queue",
                           "worker " + WhyField(e, "worker") + " 从队列取出 " + WhyField(e, "key"));
  }
  if (type == "reconcile.start") return ReconcileText(seq, first);
  if (type == "reconcile.end") return EndText(seq);
  if (type == "queue.done" || type == "queue.forget") {
    return arrow + w_.Pick(std::string(type == "queue.done" ? "Done" : "Forget") + " for " +
                               WhyField(e, "key"),
                           WhyField(e, "key") + " 的 " + (type == "queue.done" ? "Done" : "Forget"));
  }
  if (type == "scheduler.bind") {
    return arrow + w_.Pick("kube-scheduler chose " + WhyField(e, "node") + " for Pod " +
                               WhyField(e, "pod"),
                           "kube-scheduler 为 Pod " + WhyField(e, "pod") + " 选择了 " +
                               WhyField(e, "node"));
  }
  if (type == "kcm.action") {
    const std::string detail = WhyField(e, "detail");
    return arrow + w_.Pick("the " + WhyField(e, "controller") + " controller: " +
                               WhyField(e, "action") + " " + WhyField(e, "object") +
                               (detail.empty() ? "" : " (" + detail + ")"),
                           WhyField(e, "controller") + " 控制器：" + WhyField(e, "action") + " " +
                               WhyField(e, "object") + (detail.empty() ? "" : "（" + detail + "）"));
  }
  if (type == "gc.action") {
    return arrow + w_.Pick("the garbage collector: " + WhyField(e, "action") + " " +
                               WhyField(e, "object"),
                           "垃圾回收器：" + WhyField(e, "action") + " " + WhyField(e, "object"));
  }
  if (type == "informer.resync") {
    return arrow + w_.Pick("resync timer: the " + WhyField(e, "informer") + " informer replayed " +
                               WhyField(e, "objects") + " " + WhyField(e, "kind") +
                               " objects as Update events",
                           "resync 定时器：" + WhyField(e, "informer") + " informer 把 " +
                               WhyField(e, "objects") + " 个 " + WhyField(e, "kind") +
                               " 对象作为 Update 事件重放");
  }
  if (type == "leader.election") {
    const bool acquired = WhyField(e, "action") == "acquired";
    return arrow + w_.Pick(WhyField(e, "identity") + (acquired ? " acquired" : " lost") +
                               " the leader lease " + WhyField(e, "lease"),
                           WhyField(e, "identity") + (acquired ? " 获得了" : " 失去了") +
                               " leader 租约 " + WhyField(e, "lease"));
  }
  if (type == "operator.log") {
    const std::string detail = WhyField(e, "detail");
    return arrow + w_.Pick(WhyField(e, "operator") + " logged: ", WhyField(e, "operator") + " 日志：") +
           WhyField(e, "message") + (detail.empty() ? "" : " (" + detail + ")");
  }
  // Any other record: its type and fields, as `trace` prints them.
  std::string text = arrow + std::string(type);
  for (const auto& [key, value] : e.fields) {
    if (key == "cause" || (!value.is_int && value.s.empty())) continue;
    text += " ";
    text.append(key).append("=").append(value.Text());
  }
  return text;
}

void WhyWriter::Effects(int64_t start_seq, std::vector<WhyLine>* lines) const {
  const int64_t last = static_cast<int64_t>(events_.size());
  size_t writes = 0, hidden = 0, events_recorded = 0;
  int64_t end_seq = 0;
  for (int64_t s = start_seq + 1; s <= last && end_seq == 0; ++s) {
    const Event& e = WhyAt(events_, s);
    if (WhyCauseOf(e) != start_seq) continue;
    if (e.type == "reconcile.end") {
      end_seq = s;
    } else if (e.type == "api.request" && WhyIsWrite(WhyField(e, "verb"))) {
      // Events (the kind) are the operator's notes to the learner, not changes of state.
      if (WhyField(e, "kind") == "Event") {
        ++events_recorded;
      } else if (writes++ < kMaxWhyEffectLines) {
        lines->push_back({WhyLine::Role::kEffect, s, e.t, LinkText(s, false)});
      } else {
        ++hidden;
      }
    }
  }
  if (hidden > 0) {
    lines->push_back({WhyLine::Role::kElided, 0, 0,
                      w_.Pick("… and " + std::to_string(hidden) + " more writes",
                              "…… 另有 " + std::to_string(hidden) + " 次写入")});
  }
  if (events_recorded > 0) {
    lines->push_back({WhyLine::Role::kElided, 0, 0,
                      w_.Pick("(and recorded " + std::to_string(events_recorded) +
                                  (events_recorded == 1 ? " Event)" : " Events)"),
                              "（并记录了 " + std::to_string(events_recorded) + " 个 Event）")});
  }
  if (end_seq > 0) {
    lines->push_back({WhyLine::Role::kEffect, end_seq, WhyAt(events_, end_seq).t, EndText(end_seq)});
  } else {
    lines->push_back({WhyLine::Role::kElided, 0, 0,
                      w_.Pick("→ still running: its result is not in the trace yet",
                              "→ 仍在运行：trace 中还没有它的结果")});
  }
}

std::string WhyWriter::Heading(int64_t seq, WhyRoot root) const {
  // A reconcile is told from its start, whichever of its records was asked about.
  const int64_t start = WhyReconcileOf(events_, seq);
  if (start > 0) seq = start;
  const Event& e = WhyAt(events_, seq);
  const std::string at = "seq " + std::to_string(seq) + w_.Pick(", ", "，") + "t=" + base::FormatDuration(e.t);
  const std::string root_en = root == WhyRoot::kLearner   ? "your command"
                              : root == WhyRoot::kKubelet ? "a kubelet status write"
                              : root == WhyRoot::kTimer   ? "a timer"
                                                          : "the first recorded cause";
  const std::string root_zh = root == WhyRoot::kLearner   ? "你的命令"
                              : root == WhyRoot::kKubelet ? "kubelet 写入 status"
                              : root == WhyRoot::kTimer   ? "定时器"
                                                          : "最早记录的原因";
  if (start > 0) {
    const Event& s = WhyAt(events_, start);
    const std::string n = std::to_string(WhyReconcileNumber(events_, start));
    return w_.Pick("why " + WhyField(s, "controller") + " reconcile #" + n + " of " +
                       WhyField(s, "key") + " ran, and what it did (" + at + "; root: " + root_en +
                       "):",
                   "为什么 " + WhyField(s, "controller") + " 对 " + WhyField(s, "key") + " 的第 " +
                       n + " 次协调会运行、它做了什么（" + at + "；根源：" + root_zh + "）：");
  }
  return w_.Pick("why " + std::string(e.type) + " happened (" + at + "; root: " + root_en + "):",
                 "为什么发生 " + std::string(e.type) + "（" + at + "；根源：" + root_zh + "）：");
}

WhyChain WhyWriter::Explain(int64_t seq) {
  WhyChain chain;
  chain.seq = seq;
  const int64_t reconcile = WhyReconcileOf(events_, seq);
  // A reconcile is explained from its start: the chain leads to it, the effects follow it.
  std::vector<int64_t> path = Ancestors(reconcile > 0 ? reconcile : seq);
  const Event& root = WhyAt(events_, path.front());
  if (root.type == "kubelet.pod") {
    chain.root = WhyRoot::kKubelet;
  } else if (root.type == "queue.add_after" || root.type == "queue.add_rate_limited" ||
             root.type == "informer.resync") {
    chain.root = WhyRoot::kTimer;
  } else if (WhyCauseOf(root) <= 0) {
    chain.root = WhyRoot::kLearner;
  }
  std::vector<WhyLine> lines;
  for (size_t i = 0; i < path.size(); ++i) {
    const int64_t s = path[i];
    const Event& e = WhyAt(events_, s);
    const bool first = lines.empty();
    // Merged pairs: a kubelet's observation and the status write it makes tell one change; a
    // worker's queue.get and the reconcile it starts are one step.
    if (e.type == "kubelet.pod" && i + 1 < path.size()) {
      const Event& next = WhyAt(events_, path[i + 1]);
      if (next.type == "api.request" && next.FieldString("user").rfind("system:node:", 0) == 0) {
        std::string text = (first ? "" : "→ ") + WhyKubeletChange(e, w_) +
                           w_.Pick(" (kubelet status write, " + WhyField(e, "node") + ")",
                                   "（kubelet 写入 status，" + WhyField(e, "node") + "）");
        if (WhyCauseOf(e) <= 0) text += w_.Pick(", after your command", "，由你的命令引起");
        lines.push_back({first ? WhyLine::Role::kRoot : WhyLine::Role::kLink, path[i + 1],
                         next.t, text});
        ++i;
        continue;
      }
    }
    if (e.type == "queue.get" && i + 1 < path.size() &&
        WhyAt(events_, path[i + 1]).type == "reconcile.start") {
      continue;
    }
    std::string text = LinkText(s, first);
    if (first && e.type == "kubelet.pod" && WhyCauseOf(e) <= 0) {
      text += w_.Pick(", after your command", "，由你的命令引起");
    }
    lines.push_back({first ? WhyLine::Role::kRoot : WhyLine::Role::kLink, s, e.t, text});
  }
  // A long chain keeps its root and the links nearest the record; the middle is counted.
  if (lines.size() > kMaxWhyChainLines) {
    const size_t keep_tail = kMaxWhyChainLines - 2;
    const size_t cut = lines.size() - 1 - keep_tail;
    std::vector<WhyLine> kept;
    kept.push_back(lines.front());
    kept.push_back({WhyLine::Role::kElided, 0, 0,
                    w_.Pick("… " + std::to_string(cut) + " more links …",
                            "…… 中间还有 " + std::to_string(cut) + " 环 ……")});
    kept.insert(kept.end(), lines.end() - static_cast<std::ptrdiff_t>(keep_tail), lines.end());
    lines = std::move(kept);
  }
  if (reconcile > 0) Effects(reconcile, &lines);
  chain.lines = std::move(lines);
  chain.heading = Heading(seq, chain.root);
  return chain;
}

}  // namespace

base::StatusOr<WhyLanguage> ParseWhyLanguage(const std::string& text) {
  if (text == "en") return WhyLanguage::kEnglish;
  if (text == "zh") return WhyLanguage::kChinese;
  return base::Status(base::StatusCode::kBadRequest,
                      "error: --lang must be en or zh, got \"" + text + "\"");
}

WhyChain ExplainWhy(const sim::Trace& trace, int64_t seq, WhyLanguage lang) {
  return WhyWriter(trace.events(), lang).Explain(seq);
}

base::StatusOr<WhyChain> ExplainWhySeq(const sim::Trace& trace, int64_t seq, WhyLanguage lang) {
  if (seq < 1 || seq > trace.last_seq()) {
    return base::Status(base::StatusCode::kNotFound,
                        "error: the trace has no record " + std::to_string(seq) + " (it has " +
                            std::to_string(trace.last_seq()) + " records, seq 1 to " +
                            std::to_string(trace.last_seq()) + ")");
  }
  return ExplainWhy(trace, seq, lang);
}

std::vector<int64_t> FindReconciles(const sim::Trace& trace, const std::string& key,
                                    const std::string& controller) {
  std::vector<int64_t> out;
  for (const Event& e : trace.events()) {
    if (e.type != "reconcile.start" || e.FieldText("key") != key) continue;
    if (!controller.empty() && e.FieldText("controller") != controller) continue;
    out.push_back(e.seq);
  }
  return out;
}

namespace {

// WhyWidth counts the characters of UTF-8 text (a duration may print "µs").
size_t WhyWidth(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

}  // namespace

std::string FormatWhy(const WhyChain& chain) {
  size_t seq_w = 0, t_w = 0;
  for (const WhyLine& l : chain.lines) {
    if (l.role == WhyLine::Role::kElided) continue;
    seq_w = std::max(seq_w, std::to_string(l.seq).size());
    t_w = std::max(t_w, WhyWidth(base::FormatDuration(l.t)));
  }
  std::string out = chain.heading + "\n";
  for (const WhyLine& l : chain.lines) {
    std::string prefix;
    if (l.role != WhyLine::Role::kElided) {
      const std::string seq = std::to_string(l.seq), t = base::FormatDuration(l.t);
      prefix = "seq " + std::string(seq_w - seq.size(), ' ') + seq + "  t=" + t +
               std::string(t_w - WhyWidth(t), ' ') + "  ";
    } else {
      prefix = std::string(4 + seq_w + 4 + t_w + 2, ' ');
    }
    out += "  " + prefix + l.text + "\n";
  }
  return out;
}

}  // namespace lab
