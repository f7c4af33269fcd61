// The rewrites that need the AST: references to MPI functions, types and
// enumerators; main; C library calls with process-wide meaning, and exits in
// signal handlers. Objects with static storage, which each rank has its own
// of, are rank_globals.cpp's.
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"

#include <set>

#include "names.h"
#include "translate.h"

namespace mpi2pure {
namespace {

using namespace clang::ast_matchers;
using clang::SourceLocation;

// MPI_Send(...), &MPI_Send, MPI_THREAD_MULTIPLE (an enumerator in Open MPI),
// MPI_Comm / MPI_Status / ... wherever a type is written.
class MpiReferences : public MatchFinder::MatchCallback {
 public:
  explicit MpiReferences(TuContext& tu) : tu_(tu) {}
  void run(const MatchFinder::MatchResult& r) override {
    if (const auto* ref = r.Nodes.getNodeAs<clang::DeclRefExpr>("ref")) {
      const clang::NamedDecl* d = ref->getDecl();
      // A call of an MPI function the parse header does not declare is an
      // implicit declaration (C): MPI's, since MPI reserves the prefix.
      if (tu_.place(d->getLocation()) == Place::library || d->isImplicit())
        tu_.mpi_reference(ref->getLocation(), d->getName());
    } else if (const auto* tl = r.Nodes.getNodeAs<clang::TypeLoc>("type")) {
      // `const MPI_Status *` matches as the qualified type; the name is in
      // its unqualified part.
      auto typedef_loc = tl->getUnqualifiedLoc().getAs<clang::TypedefTypeLoc>();
      if (!typedef_loc) return;
      const clang::TypedefNameDecl* d = typedef_loc.getTypedefNameDecl();
      if (tu_.place(d->getLocation()) == Place::library)
        tu_.mpi_reference(typedef_loc.getNameLoc(), d->getName());
    }
  }

 private:
  TuContext& tu_;
};

// main becomes pure_main, which Pure::main runs on every rank thread. Its
// C signature must match pure.h's `int pure_main(int, char**)`, and unlike
// main it has no implicit `return 0`.
class MainFunction : public MatchFinder::MatchCallback {
 public:
  explicit MainFunction(TuContext& tu) : tu_(tu) {}
  void run(const MatchFinder::MatchResult& r) override {
    const auto* fd = r.Nodes.getNodeAs<clang::FunctionDecl>("main");
    SourceLocation name = fd->getLocation();
    if (tu_.place(name) != Place::project) return;
    if (name.isMacroID()) {
      tu_.session.report.error(tu_.where(tu_.sm.getExpansionLoc(name)),
                               "cannot rename main to pure_main here: it is declared by a macro");
      return;
    }
    tu_.replace(name, 4, "pure_main");
    if (tu_.cplusplus() && !fd->isExternC()) {
      SourceLocation start = fd->getInnerLocStart();
      if (start.isFileID()) tu_.insert(start, "extern \"C\" ");
    }
    if (fd->getNumParams() == 0) parameters(fd);
    if (fd->doesThisDeclarationHaveABody()) final_return(fd);
  }

 private:
  // main() and main(void) -> pure_main(int, char**), the prototype in
  // pure.h. C needs parameter names in a definition; the body marks them
  // used, on the line of its `{`, so line numbers stay.
  void parameters(const clang::FunctionDecl* fd) {
    clang::FunctionTypeLoc ftl = fd->getFunctionTypeLoc();
    if (!ftl) return;
    SourceLocation l = ftl.getLParenLoc(), rp = ftl.getRParenLoc();
    if (l.isMacroID() || rp.isMacroID()) return;
    SourceLocation inside = l.getLocWithOffset(1);
    unsigned length = tu_.sm.getFileOffset(rp) - tu_.sm.getFileOffset(inside);
    if (tu_.cplusplus()) {
      tu_.replace(inside, length, "int, char**");
      return;
    }
    tu_.replace(inside, length, "int pure_argc, char **pure_argv");
    const auto* body = llvm::dyn_cast_or_null<clang::CompoundStmt>(
        fd->doesThisDeclarationHaveABody() ? fd->getBody() : nullptr);
    if (body && body->getLBracLoc().isFileID())
      tu_.insert(body->getLBracLoc().getLocWithOffset(1), " (void)pure_argc; (void)pure_argv;");
  }

  void final_return(const clang::FunctionDecl* fd) {
    const auto* body = llvm::dyn_cast_or_null<clang::CompoundStmt>(fd->getBody());
    if (!body || (!body->body_empty() && llvm::isa<clang::ReturnStmt>(body->body_back()))) return;
    SourceLocation close = body->getRBracLoc();
    if (close.isFileID()) tu_.insert(close, "return 0; ");
  }

  TuContext& tu_;
};

// exit, abort, rand, strtok, localtime, ... -> their pure/compat.h forms.
class LibcReplacements : public MatchFinder::MatchCallback {
 public:
  explicit LibcReplacements(TuContext& tu) : tu_(tu) {}
  void run(const MatchFinder::MatchResult& r) override {
    const auto* ref = r.Nodes.getNodeAs<clang::DeclRefExpr>("libc");
    const auto* fd = llvm::cast<clang::FunctionDecl>(ref->getDecl())->getCanonicalDecl();
    // The user's own function stays; an implicit declaration (C, no
    // <stdlib.h>) is still the library's.
    if (!fd->isImplicit() && tu_.place(fd->getLocation()) == Place::project) return;
    SourceLocation spelled = tu_.sm.getSpellingLoc(ref->getBeginLoc());
    if (tu_.place(spelled) != Place::project && tu_.place(tu_.sm.getExpansionLoc(spelled)) !=
                                                    Place::project)
      return;
    std::string to = replacement(fd);
    // std::exit -> pure_exit: the qualifier goes with the name.
    if (tu_.replace_range(ref->getSourceRange(), to, fd->getName().str()))
      tu_.session.needs_compat.insert(tu_.path(spelled));
  }

 private:
  static std::string replacement(const clang::FunctionDecl* fd) {
    // <unistd.h> of a strict POSIX program: getopt without permutation.
    if (const auto* label = fd->getAttr<clang::AsmLabelAttr>())
      if (label->getLabel() == "__posix_getopt") return "pure_getopt_posix";
    // C++'s std::lgamma(float) and (long double) are lgammaf and lgammal.
    if (fd->getQualifiedNameAsString() == "std::lgamma" && fd->getNumParams() == 1) {
      const clang::QualType t = fd->getParamDecl(0)->getType();
      if (t->isSpecificBuiltinType(clang::BuiltinType::Float)) return "pure_lgammaf";
      if (t->isSpecificBuiltinType(clang::BuiltinType::LongDouble)) return "pure_lgammal";
    }
    return libc_replacement(fd->getName())->str();
  }

  TuContext& tu_;
};

// stdout, optind, signgam, environ, std::cout, ...: the rank's own.
class LibcObjects : public MatchFinder::MatchCallback {
 public:
  explicit LibcObjects(TuContext& tu) : tu_(tu) {}
  void run(const MatchFinder::MatchResult& r) override {
    const auto* ref = r.Nodes.getNodeAs<clang::DeclRefExpr>("object");
    const auto* vd = llvm::cast<clang::VarDecl>(ref->getDecl());
    std::string name = vd->getQualifiedNameAsString();
    auto to = libc_object_replacement(name);
    if (!to) return;
    SourceLocation loc = ref->getBeginLoc();
    if (loc.isFileID()) {
      if (tu_.place(loc) != Place::project) return;
      if (tu_.replace_range(ref->getSourceRange(), to->str(), name))
        tu_.session.needs_compat.insert(tu_.path(loc));
      return;
    }
    // A library macro (stdout is one in glibc): the macro's name where the
    // program wrote it, in its text or in one of its own macros.
    SourceLocation spelled = tu_.sm.getSpellingLoc(loc);
    if (tu_.place(spelled) == Place::project) {
      if (tu_.replace_range(ref->getSourceRange(), to->str(), name))
        tu_.session.needs_compat.insert(tu_.path(spelled));
      return;
    }
    SourceLocation use = tu_.sm.getImmediateExpansionRange(loc).getBegin();
    use = tu_.sm.getSpellingLoc(use);
    if (tu_.place(use) != Place::project) return;
    const unsigned length = clang::Lexer::MeasureTokenLength(use, tu_.sm, tu_.lang);
    if (tu_.replace(use, length, to->str())) tu_.session.needs_compat.insert(tu_.path(use));
  }

 private:
  TuContext& tu_;
};

// A use whose meaning is the process's, not the rank's: a warning that says
// what differs (an error with --strict).
void process_wide(TuContext& tu, SourceLocation at, const std::string& message) {
  if (tu.session.options.strict)
    tu.session.report.error(tu.where(at), message);
  else
    tu.session.report.warning(tu.where(at), message);
}

// Library calls whose state is the process's by nature: warnings that say
// what differs (errors with --strict).
class LibcHazards : public MatchFinder::MatchCallback {
 public:
  explicit LibcHazards(TuContext& tu) : tu_(tu) {}
  void run(const MatchFinder::MatchResult& r) override {
    const auto* ref = r.Nodes.getNodeAs<clang::DeclRefExpr>("hazard");
    const auto* fd = llvm::cast<clang::FunctionDecl>(ref->getDecl())->getCanonicalDecl();
    if (!fd->isImplicit() && tu_.place(fd->getLocation()) == Place::project) return;
    SourceLocation at = tu_.sm.getSpellingLoc(ref->getLocation());
    if (tu_.place(at) != Place::project) at = tu_.sm.getExpansionLoc(ref->getLocation());
    if (tu_.place(at) != Place::project) return;
    const std::string message = fd->getName().str() + ": " + libc_hazard(fd->getName())->str() +
                                " (ranks are threads of one process)";
    process_wide(tu_, at, message);
  }

 private:
  TuContext& tu_;
};

// exit in a function the program makes a signal handler (signal, sigset,
// or a sigaction's sa_handler / sa_sigaction): a signal reaches whichever
// thread of the process it interrupts, so the call ends that thread's rank,
// where under mpirun it ended the process that got the signal. A warning
// (an error with --strict) at each such call in the handler's own body;
// _exit, which ends the process in both, is left alone.
class SignalHandlerExits : public MatchFinder::MatchCallback {
 public:
  explicit SignalHandlerExits(TuContext& tu) : tu_(tu) {}
  void run(const MatchFinder::MatchResult& r) override {
    const auto* handler = r.Nodes.getNodeAs<clang::FunctionDecl>("handler");
    const clang::FunctionDecl* def = handler->getDefinition();
    if (!def || !def->hasBody() || tu_.place(def->getLocation()) != Place::project) return;
    const auto exits = match(
        findAll(callExpr(callee(functionDecl(hasAnyName("exit", "_Exit", "quick_exit"))))
                    .bind("exit")),
        *def->getBody(), *r.Context);
    for (const BoundNodes& found : exits) {
      const auto* call = found.getNodeAs<clang::CallExpr>("exit");
      SourceLocation at = tu_.sm.getExpansionLoc(call->getBeginLoc());
      if (tu_.place(at) != Place::project || !reported_.insert(at.getRawEncoding()).second)
        continue;
      const std::string message =
          "exit in signal handler " + def->getName().str() +
          ": a signal interrupts whichever thread of the process it reaches, so exit(0) ends "
          "only that thread's rank, where under mpirun it ended the process the signal was for "
          "(_exit ends the process in both; ranks are threads of one process)";
      process_wide(tu_, at, message);
    }
  }

 private:
  TuContext& tu_;
  std::set<unsigned> reported_;  // a handler set several times is reported once
};

}  // namespace

void add_ast_rewrites(MatchFinder& finder, TuContext& tu,
                      std::vector<std::unique_ptr<MatchFinder::MatchCallback>>& keep) {
  auto mpi = std::make_unique<MpiReferences>(tu);
  finder.addMatcher(declRefExpr(to(namedDecl(matchesName("^::P?MPI_")))).bind("ref"), mpi.get());
  finder.addMatcher(
      typeLoc(loc(typedefType(hasDeclaration(typedefNameDecl(matchesName("^::P?MPI_"))))))
          .bind("type"),
      mpi.get());
  keep.push_back(std::move(mpi));

  auto main = std::make_unique<MainFunction>(tu);
  finder.addMatcher(functionDecl(isMain()).bind("main"), main.get());
  keep.push_back(std::move(main));

  auto libc = std::make_unique<LibcReplacements>(tu);
  finder.addMatcher(declRefExpr(to(functionDecl(anyOf(matchesName(libc_replacement_regex()),
                                                      hasName("::std::lgamma")))))
                        .bind("libc"),
                    libc.get());
  keep.push_back(std::move(libc));

  auto objects = std::make_unique<LibcObjects>(tu);
  finder.addMatcher(declRefExpr(to(varDecl(matchesName(libc_object_regex())))).bind("object"),
                    objects.get());
  keep.push_back(std::move(objects));

  auto hazards = std::make_unique<LibcHazards>(tu);
  finder.addMatcher(
      declRefExpr(to(functionDecl(matchesName(libc_hazard_regex())))).bind("hazard"),
      hazards.get());
  keep.push_back(std::move(hazards));

  auto handler_exits = std::make_unique<SignalHandlerExits>(tu);
  const auto handler = ignoringParenImpCasts(declRefExpr(to(functionDecl().bind("handler"))));
  finder.addMatcher(
      callExpr(callee(functionDecl(hasAnyName("signal", "sigset", "bsd_signal", "sysv_signal"))),
               hasArgument(1, handler)),
      handler_exits.get());
  finder.addMatcher(binaryOperator(isAssignmentOperator(),
                                   hasLHS(memberExpr(member(hasAnyName("sa_handler", "sa_sigaction")))),
                                   hasRHS(handler)),
                    handler_exits.get());
  keep.push_back(std::move(handler_exits));

  add_rank_global_rewrites(finder, tu, keep);
}

}  // namespace mpi2pure
