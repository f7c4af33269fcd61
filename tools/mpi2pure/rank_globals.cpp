// Objects with static storage become each rank's own (the runtime side is
// runtime/job/rank_globals.h): every rank has a copy of the program's
// writable segment, shared by the threads it starts, and every use of a
// mutable global `x` becomes PURE_RANK(x), the same object in the calling
// thread's rank's copy. Declarations stay as they are, except where a copy
// of bytes is not the object a process would have:
//
//   * a C++ object of class type whose copy or destruction is not trivial
//     (std::vector, std::string, ...) gets type ::pure::RankGlobal<T>, in
//     every declaration: each rank constructs its own, with the declaration's
//     initialiser, and destroys it when it ends; a function-local one gets
//     ::pure::RankLocal<T>, constructed by each rank the first time it
//     passes the declaration. Uses become PURE_RANK_OBJECT(x).
//   * a C++ global of a copyable type initialised at run time (int n = f();)
//     is initialised by each rank (::pure::rank_init); a function-local one
//     is a RankLocal too.
//   * a global that holds addresses of globals (int *p = &x;) is registered,
//     and each rank's copy points into that copy.
//
// Declarations are rewritten where they are written, uses by insertion
// around the written name, so a header reached from several sources gets the
// same edits from each.
#include <memory>
#include <set>
#include <string>
#include <utility>

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"
#include "names.h"
#include "translate.h"

namespace mpi2pure {
namespace {

using namespace clang::ast_matchers;
using clang::SourceLocation;

enum class Storage {
  shared,  // constant, thread-local or a library's: left alone
  copied,  // the bytes of each rank's copy: PURE_RANK(x)
  object,  // C++ ::pure::RankGlobal<T>: PURE_RANK_OBJECT(x)
  local,   // C++ function-local ::pure::RankLocal<T>: PURE_RANK_OBJECT(x)
};

class Classifier {
 public:
  explicit Classifier(TuContext& tu) : tu_(tu) {}

  Storage storage(const clang::VarDecl* vd, clang::ASTContext& ctx) {
    if (const clang::VarDecl* pattern = vd->getTemplateInstantiationPattern()) vd = pattern;
    vd = vd->getCanonicalDecl();
    if (!vd->hasGlobalStorage() || llvm::isa<clang::ParmVarDecl>(vd) || vd->isImplicit())
      return Storage::shared;
    if (vd->getTLSKind() != clang::VarDecl::TLS_None || vd->isConstexpr()) return Storage::shared;
    if (is_libc_object(vd->getName())) return Storage::shared;
    for (const clang::VarDecl* redecl : vd->redecls())
      if (tu_.place(redecl->getLocation()) != Place::project) return Storage::shared;
    const clang::QualType type = vd->getType();
    if (type->isReferenceType()) return Storage::copied;  // PURE_RANK moves the referent
    if (ctx.getBaseElementType(type).isConstQualified()) return Storage::shared;
    if (!tu_.cplusplus()) return Storage::copied;
    if (object_type(type, ctx)) return vd->isStaticLocal() ? Storage::local : Storage::object;
    if (vd->isStaticLocal()) {
      for (const clang::VarDecl* redecl : vd->redecls())
        if (redecl->hasInit() && (!constant_init(redecl, ctx) || takes_rank_address(redecl, ctx)))
          return Storage::local;
    }
    return Storage::copied;
  }

  // A C++ type whose bytes cannot simply be copied for each rank; a
  // dependent one counts, as some instantiation may be.
  static bool object_type(clang::QualType type, clang::ASTContext& ctx) {
    if (type->isDependentType()) return true;
    const clang::QualType element = ctx.getBaseElementType(type);
    if (!element->isRecordType()) return false;
    return !element.isTriviallyCopyableType(ctx) || element.isDestructedType();
  }

  static bool constant_init(const clang::VarDecl* vd, clang::ASTContext& ctx) {
    const clang::Expr* init = vd->getInit();
    if (!init || init->isValueDependent()) return init == nullptr;
    if (init->isConstantInitializer(ctx, vd->getType()->isReferenceType())) return true;
    return vd->evaluateValue() != nullptr;
  }

  // The initialiser names a global that ranks have copies of (in a constant
  // initialiser: takes its address).
  bool takes_rank_address(const clang::VarDecl* vd, clang::ASTContext& ctx) {
    return names_rank_global(vd->getInit(), ctx);
  }

  bool names_rank_global(const clang::Stmt* s, clang::ASTContext& ctx) {
    if (!s) return false;
    if (llvm::isa<clang::UnaryExprOrTypeTraitExpr>(s)) return false;  // sizeof x
    const clang::ValueDecl* target = nullptr;
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(s)) target = ref->getDecl();
    if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(s)) target = member->getMemberDecl();
    if (const auto* var = llvm::dyn_cast_or_null<clang::VarDecl>(target))
      if (storage(var, ctx) != Storage::shared) return true;
    for (const clang::Stmt* child : s->children())
      if (names_rank_global(child, ctx)) return true;
    return false;
  }

  // Whether the initialiser of static-storage `vd` stays where it is,
  // evaluated once for the whole process (at compile time, or before main
  // for a constant C++ object): then the globals it names are not wrapped.
  bool init_stays(const clang::VarDecl* vd, clang::ASTContext& ctx) {
    if (!tu_.cplusplus()) return true;
    switch (storage(vd, ctx)) {
      case Storage::shared:
        return true;
      case Storage::copied:
        return vd->isStaticLocal() || constant_init(vd, ctx);
      case Storage::object:
      case Storage::local:
        return false;
    }
    return true;
  }

 private:
  TuContext& tu_;
};

// Where `loc` (a location in the AST) is written, as a file location in a
// project file; invalid when it is not written in one piece there.
SourceLocation written_at(TuContext& tu, SourceLocation loc) {
  if (loc.isInvalid()) return loc;
  SourceLocation spelled = tu.sm.getSpellingLoc(loc);
  if (tu.place(spelled) != Place::project) return SourceLocation();
  return spelled;
}

SourceLocation after_token(TuContext& tu, SourceLocation loc) {
  return loc.getLocWithOffset(
      static_cast<int>(clang::Lexer::MeasureTokenLength(loc, tu.sm, tu.lang)));
}

std::string text_of(TuContext& tu, SourceLocation begin, SourceLocation end) {
  const char* b = tu.sm.getCharacterData(begin);
  const char* e = tu.sm.getCharacterData(end);
  return std::string(b, static_cast<size_t>(e - b));
}

// The first token at or after `from` (a file location).
clang::Token next_token(TuContext& tu, SourceLocation from) {
  clang::Token tok;
  clang::Lexer::getRawToken(from, tok, tu.sm, tu.lang, /*IgnoreWhiteSpace=*/true);
  return tok;
}

// Inside PURE_RANK(...) already: translated code translates to itself.
bool already_wrapped(TuContext& tu, SourceLocation loc) {
  while (loc.isMacroID()) {
    if (tu.sm.isMacroArgExpansion(loc)) {
      llvm::StringRef macro = clang::Lexer::getImmediateMacroName(loc, tu.sm, tu.lang);
      if (macro == "PURE_RANK" || macro == "PURE_RANK_OBJECT") return true;
    }
    loc = tu.sm.getImmediateMacroCallerLoc(loc);
  }
  return false;
}

// A declaration the translator wrote: of type ::pure::RankGlobal<T> or
// ::pure::RankLocal<T>, or initialised by ::pure::rank_init.
bool already_rewritten(const clang::VarDecl* vd, clang::ASTContext& ctx) {
  const clang::QualType type = ctx.getBaseElementType(vd->getType());
  std::string name;
  if (const auto* record = type->getAsCXXRecordDecl())
    name = record->getQualifiedNameAsString();
  else if (const auto* spec = type->getAs<clang::TemplateSpecializationType>())
    if (const clang::TemplateDecl* td = spec->getTemplateName().getAsTemplateDecl())
      name = td->getQualifiedNameAsString();
  if (name == "pure::RankGlobal" || name == "pure::RankLocal") return true;
  if (const clang::Expr* init = vd->getInit())
    if (const auto* call = llvm::dyn_cast<clang::CallExpr>(init->IgnoreImplicit()))
      if (const clang::FunctionDecl* fd = call->getDirectCallee())
        return fd->getQualifiedNameAsString() == "pure::rank_init";
  return false;
}

// ---- uses: x -> PURE_RANK(x) ----

class Uses : public MatchFinder::MatchCallback {
 public:
  Uses(TuContext& tu, std::shared_ptr<Classifier> classify)
      : tu_(tu), classify_(*classify), owner_(std::move(classify)) {}

  void run(const MatchFinder::MatchResult& r) override {
    clang::ASTContext& ctx = *r.Context;
    if (const auto* ref = r.Nodes.getNodeAs<clang::DeclRefExpr>("use")) {
      const auto* vd = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
      if (!vd) return;
      // obj.member of a static member: the member expression is wrapped.
      for (const auto& parent : ctx.getParents(*ref))
        if (const auto* member = parent.get<clang::MemberExpr>())
          if (const auto* mv = llvm::dyn_cast<clang::VarDecl>(member->getMemberDecl()))
            if (classify_.storage(mv, ctx) != Storage::shared) return;
      use(ref, vd, ref->getSourceRange(), ctx);
    } else if (const auto* member = r.Nodes.getNodeAs<clang::MemberExpr>("member")) {
      if (const auto* vd = llvm::dyn_cast<clang::VarDecl>(member->getMemberDecl()))
        use(member, vd, member->getSourceRange(), ctx);
    } else if (const auto* inst = r.Nodes.getNodeAs<clang::DeclRefExpr>("instantiated")) {
      // A name that depends on a template parameter and names a global
      // only in an instantiation: checked once every spelled use is known.
      if (const auto* vd = llvm::dyn_cast<clang::VarDecl>(inst->getDecl()))
        if (classify_.storage(vd, ctx) != Storage::shared)
          instantiated_.emplace_back(tu_.sm.getSpellingLoc(inst->getLocation()), vd->getName().str());
    }
  }

  void onEndOfTranslationUnit() override {
    for (const auto& [loc, name] : instantiated_) {
      if (seen_.count(loc.getRawEncoding()) || tu_.place(loc) != Place::project) continue;
      tu_.session.report.error(
          tu_.where(loc), "cannot give each rank its own '" + name +
                              "' here: it is named through a template parameter; name it "
                              "without one (or through a pointer taken outside the template)");
    }
    instantiated_.clear();
    seen_.clear();
  }

 private:
  void use(const clang::Expr* e, const clang::VarDecl* vd, clang::SourceRange range,
           clang::ASTContext& ctx) {
    const Storage s = classify_.storage(vd, ctx);
    if (s == Storage::shared) return;
    seen_.insert(tu_.sm.getSpellingLoc(e->getExprLoc()).getRawEncoding());
    if (already_wrapped(tu_, range.getBegin()) || registered_address(e, ctx)) return;
    switch (context(e, ctx)) {
      case Context::constant:
      case Context::type_only:  // decltype(x): the declared type, also of a RankGlobal's
        return;
      case Context::size_only:
        // A RankGlobal<T> has T's size; a RankLocal<T> more.
        if (s != Storage::local) return;
        break;
      case Context::evaluated:
        break;
    }
    SourceLocation b = written_at(tu_, range.getBegin());
    SourceLocation e_loc = written_at(tu_, range.getEnd());
    if (b.isInvalid() || e_loc.isInvalid() || tu_.sm.getFileID(b) != tu_.sm.getFileID(e_loc) ||
        tu_.sm.getFileOffset(b) > tu_.sm.getFileOffset(e_loc)) {
      tu_.session.report.error(
          tu_.where(tu_.sm.getExpansionLoc(range.getBegin())),
          "cannot give each rank its own '" + vd->getName().str() +
              "' here: the name is not written out in the source (token pasting or a "
              "command-line macro); write PURE_RANK(" + vd->getName().str() + ") by hand");
      return;
    }
    const char* macro = s == Storage::copied ? "PURE_RANK(" : "PURE_RANK_OBJECT(";
    if (tu_.insert(b, macro) && tu_.insert(after_token(tu_, e_loc), ")"))
      tu_.session.needs_compat.insert(tu_.path(b));
  }

  // &x handed to pure_rank_relocate or ::pure::rank_init, which the
  // translator wrote: the address in the segment, by design.
  static bool registered_address(const clang::Expr* e, clang::ASTContext& ctx) {
    const clang::DynTypedNode node = clang::DynTypedNode::create(*e);
    for (const auto& p : ctx.getParents(node)) {
      const auto* addr = p.get<clang::UnaryOperator>();
      if (!addr || addr->getOpcode() != clang::UO_AddrOf) continue;
      for (clang::DynTypedNode up : ctx.getParents(*addr)) {
        while (up.get<clang::ImplicitCastExpr>()) {
          auto more = ctx.getParents(up);
          if (more.empty()) break;
          up = more[0];
        }
        if (const auto* call = up.get<clang::CallExpr>())
          if (const clang::FunctionDecl* fd = call->getDirectCallee()) {
            const std::string name = fd->getQualifiedNameAsString();
            if (name == "pure_rank_relocate" || name == "pure::rank_init") return true;
          }
      }
    }
    return false;
  }

  enum class Context { evaluated, size_only, type_only, constant };

  // Whether `e` is evaluated by the rank at run time, only measured
  // (sizeof), only inspected for its type (decltype, typeof, noexcept), or
  // part of a constant (a static initialiser that stays, a case label, a
  // template argument).
  Context context(const clang::Expr* e, clang::ASTContext& ctx) {
    clang::DynTypedNode node = clang::DynTypedNode::create(*e);
    for (int depth = 0; depth < 256; ++depth) {
      auto parents = ctx.getParents(node);
      if (parents.empty()) return Context::evaluated;
      const clang::DynTypedNode& p = parents[0];
      if (p.get<clang::UnaryExprOrTypeTraitExpr>()) return Context::size_only;
      if (const auto* t = p.get<clang::CXXTypeidExpr>())
        if (!t->isPotentiallyEvaluated()) return Context::type_only;
      if (p.get<clang::CXXNoexceptExpr>()) return Context::type_only;
      if (const auto* tl = p.get<clang::TypeLoc>()) {
        if (tl->getAs<clang::DecltypeTypeLoc>() || tl->getAs<clang::TypeOfExprTypeLoc>())
          return Context::type_only;
        if (tl->getAs<clang::VariableArrayTypeLoc>()) return Context::evaluated;
        return Context::constant;  // an array bound
      }
      if (p.get<clang::ConstantExpr>() || p.get<clang::StaticAssertDecl>() ||
          p.get<clang::EnumConstantDecl>() || p.get<clang::TemplateArgumentLoc>())
        return Context::constant;
      if (const auto* vd = p.get<clang::VarDecl>()) {
        if (vd->hasGlobalStorage() && !llvm::isa<clang::ParmVarDecl>(vd) &&
            classify_.init_stays(vd, ctx))
          return Context::constant;
        return Context::evaluated;
      }
      if (p.get<clang::LambdaExpr>() || p.get<clang::FunctionDecl>() || p.get<clang::FieldDecl>() ||
          p.get<clang::BlockDecl>() || p.get<clang::CXXCtorInitializer>())
        return Context::evaluated;
      node = p;
    }
    return Context::evaluated;
  }

  TuContext& tu_;
  Classifier& classify_;
  std::shared_ptr<Classifier> owner_;
  std::set<unsigned> seen_;  // spelled locations of the uses wrapped (or left) in this unit
  std::vector<std::pair<SourceLocation, std::string>> instantiated_;
};

// ---- declarations ----

class Declarations : public MatchFinder::MatchCallback {
 public:
  Declarations(TuContext& tu, std::shared_ptr<Classifier> classify)
      : tu_(tu), classify_(*classify), owner_(std::move(classify)) {}

  void run(const MatchFinder::MatchResult& r) override {
    const auto* vd = r.Nodes.getNodeAs<clang::VarDecl>("var");
    clang::ASTContext& ctx = *r.Context;
    if (llvm::isa<clang::ParmVarDecl>(vd) || vd->isImplicit()) return;
    // Only where it is written (not its instantiations) in the project.
    SourceLocation at = written_at(tu_, vd->getLocation());
    if (at.isInvalid() && tu_.place(tu_.sm.getExpansionLoc(vd->getLocation())) != Place::project)
      return;
    const Storage s = classify_.storage(vd, ctx);
    if (s == Storage::shared || already_rewritten(vd, ctx)) return;
    name_ = vd->getName().str();
    if (llvm::isa<clang::DecompositionDecl>(vd)) {
      error(vd->getLocation(), "cannot give each rank its own '" + vd->getQualifiedNameAsString() +
                                   "': a structured binding of static storage; declare the "
                                   "objects by hand");
      return;
    }
    switch (s) {
      case Storage::object:
        if (wrap_type(vd, "::pure::RankGlobal<", ctx) && is_definition(vd))
          construct_in_place(vd, "{[](void* pure_at) { ::new (pure_at) typename decltype(" +
                                     name_ + ")::type",
                             "; }}");
        break;
      case Storage::local:
        if (!alone_in_statement(vd, ctx)) return;
        if (wrap_type(vd, "::pure::RankLocal<", ctx))
          construct_in_place(vd, "; PURE_RANK(" + name_ +
                                     ").once([&](void* pure_at) { ::new (pure_at) typename "
                                     "decltype(" + name_ + ")::type",
                             "; })");
        break;
      case Storage::copied:
        copied(vd, ctx);
        break;
      case Storage::shared:
        break;
    }
  }

 private:
  static bool is_definition(const clang::VarDecl* vd) {
    return vd->isThisDeclarationADefinition() != clang::VarDecl::DeclarationOnly;
  }

  void copied(const clang::VarDecl* vd, clang::ASTContext& ctx) {
    if (!vd->hasInit() || vd->getType()->isReferenceType()) return;
    if (tu_.cplusplus() && !vd->isStaticLocal() && !Classifier::constant_init(vd, ctx)) {
      // Run time initialisation, run by each rank.
      if (vd->getType()->isArrayType()) {
        error(vd->getLocation(),
              "cannot give each rank its own '" + vd->getQualifiedNameAsString() +
                  "': an array initialised at run time; initialise it in code");
        return;
      }
      construct_in_place(vd, " = ::pure::rank_init(&" + name_ +
                                 ", [](void* pure_at) { ::new (pure_at) decltype(" + name_ + ")",
                         "; })");
      return;
    }
    if (!classify_.takes_rank_address(vd, ctx)) return;
    if (vd->isStaticLocal()) {  // C only: C++ makes it a RankLocal
      error(vd->getLocation(),
            "cannot give each rank its own '" + name_ +
                "': its initializer takes the address of a global that each rank has its own "
                "of, and C allows that only at run time; assign it in code instead");
      return;
    }
    // Each rank's copy points into that copy: registered before main.
    SourceLocation end = written_at(tu_, vd->getEndLoc());
    if (end.isInvalid()) return (void)error(vd->getLocation(), "cannot register '" + name_ + "' here");
    clang::Token semi = next_token(tu_, after_token(tu_, end));
    if (!semi.is(clang::tok::semi) && !semi.is(clang::tok::comma))
      return (void)error(vd->getLocation(), "cannot register '" + name_ + "' here");
    if (semi.is(clang::tok::comma))
      return (void)error(vd->getLocation(),
                   "cannot give each rank its own '" + name_ +
                       "' here: declare it on a line of its own (its initializer takes the "
                       "address of a global)");
    std::string qualified = name_;
    if (vd->getQualifierLoc())
      qualified =
          text_of(tu_, written_at(tu_, vd->getQualifierLoc().getBeginLoc()), at_name(vd)) + name_;
    const std::string fn = "pure_rank_relocate_" + name_;
    // Registered already (translated code translates to itself)?
    clang::Token next = next_token(tu_, after_token(tu_, semi.getLocation()));
    if (next.is(clang::tok::raw_identifier) && next.getRawIdentifier() == "static") {
      clang::Token type = next_token(tu_, after_token(tu_, next.getLocation()));
      clang::Token id = next_token(tu_, after_token(tu_, type.getLocation()));
      if (id.is(clang::tok::raw_identifier) && id.getRawIdentifier() == fn) return;
    }
    insert(after_token(tu_, semi.getLocation()),
           " static void " + fn + "(void) __attribute__((constructor)); static void " + fn +
               "(void) { pure_rank_relocate(&" + qualified + ", sizeof " + qualified + "); }");
  }

  SourceLocation at_name(const clang::VarDecl* vd) { return written_at(tu_, vd->getLocation()); }

  // A function-local RankLocal becomes two statements: the declaration
  // must stand alone in a block.
  bool alone_in_statement(const clang::VarDecl* vd, clang::ASTContext& ctx) {
    for (const auto& parent : ctx.getParents(*vd)) {
      const auto* ds = parent.get<clang::DeclStmt>();
      if (!ds) continue;
      bool in_block = false;
      for (const auto& grand : ctx.getParents(*ds))
        if (grand.get<clang::CompoundStmt>()) in_block = true;
      if (ds->isSingleDecl() && in_block) return true;
    }
    error(vd->getLocation(), "cannot give each rank its own '" + name_ +
                                 "': declare it on a line of its own in a block");
    return false;
  }

  // T x -> Wrapper<T> x, in every declaration; array bounds move into the
  // type: std::string names[3] -> Wrapper<std::string[3]> names.
  bool wrap_type(const clang::VarDecl* vd, const std::string& wrapper, clang::ASTContext& ctx) {
    clang::TypeSourceInfo* tsi = vd->getTypeSourceInfo();
    if (!tsi) return error(vd->getLocation(), "cannot rewrite the type of '" + name_ + "'");
    clang::TypeLoc tl = tsi->getTypeLoc();
    std::string bounds;
    std::vector<clang::SourceRange> bound_ranges;
    while (auto array = tl.getUnqualifiedLoc().getAs<clang::ArrayTypeLoc>()) {
      clang::SourceRange brackets = array.getBracketsRange();
      SourceLocation lb = written_at(tu_, brackets.getBegin());
      SourceLocation rb = written_at(tu_, brackets.getEnd());
      if (lb.isInvalid() || rb.isInvalid()) return macro_error(vd);
      bounds += text_of(tu_, lb, after_token(tu_, rb));
      bound_ranges.emplace_back(lb, rb);
      tl = array.getElementLoc();
    }
    SourceLocation tb = written_at(tu_, tl.getBeginLoc());
    SourceLocation te = written_at(tu_, tl.getEndLoc());
    if (tb.isInvalid() || te.isInvalid() || tl.getBeginLoc().isMacroID() ||
        tl.getEndLoc().isMacroID())
      return macro_error(vd);
    std::string element = text_of(tu_, tb, after_token(tu_, te));
    if (tl.getType()->getContainedAutoType()) {
      // auto: the deduced type, when it has a name.
      const clang::QualType deduced = ctx.getBaseElementType(vd->getType());
      const auto* record = deduced->getAsCXXRecordDecl();
      if (record && (record->isLambda() || !record->getIdentifier()))
        return error(vd->getLocation(), "cannot give each rank its own '" + name_ +
                                            "': its type has no name; declare it with a type");
      clang::PrintingPolicy policy(tu_.lang);
      policy.SuppressTagKeyword = true;
      element = deduced.getAsString(policy);
      if (!replace(tb, static_cast<unsigned>(tu_.sm.getFileOffset(after_token(tu_, te)) -
                                             tu_.sm.getFileOffset(tb)),
                   wrapper + element + bounds + ">"))
        return false;
    } else {
      if (!insert(tb, wrapper) || !insert(after_token(tu_, te), bounds + ">")) return false;
    }
    for (const clang::SourceRange& br : bound_ranges)
      if (!replace(br.getBegin(),
                   static_cast<unsigned>(tu_.sm.getFileOffset(after_token(tu_, br.getEnd())) -
                                         tu_.sm.getFileOffset(br.getBegin())),
                   ""))
        return false;
    return true;
  }

  // The declaration's initialiser, whichever way it is written, becomes
  // the body of a constructor: `prefix` + (args) / {args} / nothing +
  // `suffix`. `= expr` becomes (expr), `= {...}` becomes {...}.
  void construct_in_place(const clang::VarDecl* vd, const std::string& prefix,
                          const std::string& suffix) {
    SourceLocation name = at_name(vd);
    if (name.isInvalid() || vd->getLocation().isMacroID()) return (void)macro_error(vd);
    // End of the declarator: after the name, or after array bounds written
    // after it.
    SourceLocation declarator_end = after_token(tu_, name);
    if (clang::TypeSourceInfo* tsi = vd->getTypeSourceInfo()) {
      SourceLocation type_end = written_at(tu_, tsi->getTypeLoc().getEndLoc());
      if (type_end.isValid() && tu_.sm.getFileID(type_end) == tu_.sm.getFileID(name) &&
          tu_.sm.getFileOffset(type_end) > tu_.sm.getFileOffset(name))
        declarator_end = after_token(tu_, type_end);
    }
    clang::Token first = next_token(tu_, declarator_end);
    if (!first.isOneOf(clang::tok::equal, clang::tok::l_paren, clang::tok::l_brace)) {
      insert(declarator_end, prefix + suffix);  // no initialiser written
      return;
    }
    SourceLocation end = written_at(tu_, vd->getEndLoc());
    if (end.isInvalid() || vd->getEndLoc().isMacroID()) return (void)macro_error(vd);
    SourceLocation after = after_token(tu_, end);
    // From the end of the declarator to the initialiser's first token:
    // ` = `, ` `, or nothing.
    SourceLocation value = first.getLocation();
    bool paren = false;
    if (first.is(clang::tok::equal)) {
      clang::Token next = next_token(tu_, after_token(tu_, first.getLocation()));
      value = next.getLocation();
      paren = !next.is(clang::tok::l_brace);
    }
    const auto gap = static_cast<unsigned>(tu_.sm.getFileOffset(value) -
                                           tu_.sm.getFileOffset(declarator_end));
    if (replace(declarator_end, gap, prefix + (paren ? "(" : "")))
      insert(after, (paren ? ")" : "") + suffix);
  }

  bool macro_error(const clang::VarDecl* vd) {
    return error(vd->getLocation(),
                 "cannot give each rank its own '" + name_ +
                     "': its declaration comes from a macro; write it out");
  }

  bool error(SourceLocation loc, const std::string& message) {
    SourceLocation at = tu_.sm.getSpellingLoc(loc);
    if (tu_.place(at) != Place::project) at = tu_.sm.getExpansionLoc(loc);
    tu_.session.report.error(tu_.where(at), message);
    return false;
  }

  bool insert(SourceLocation at, const std::string& text) {
    if (!tu_.insert(at, text)) return false;
    tu_.session.needs_compat.insert(tu_.path(at));
    return true;
  }
  bool replace(SourceLocation at, unsigned length, const std::string& text) {
    if (!tu_.replace(at, length, text)) return false;
    tu_.session.needs_compat.insert(tu_.path(at));
    return true;
  }

  TuContext& tu_;
  Classifier& classify_;
  std::shared_ptr<Classifier> owner_;
  std::string name_;
};

}  // namespace

void add_rank_global_rewrites(MatchFinder& finder, TuContext& tu,
                              std::vector<std::unique_ptr<MatchFinder::MatchCallback>>& keep) {
  auto classifier = std::make_shared<Classifier>(tu);
  auto uses = std::make_unique<Uses>(tu, classifier);
  auto decls = std::make_unique<Declarations>(tu, classifier);
  // What is written (templates as written, not their instantiations).
  finder.addMatcher(traverse(clang::TK_IgnoreUnlessSpelledInSource,
                             declRefExpr(to(varDecl(hasGlobalStorage()))).bind("use")),
                    uses.get());
  finder.addMatcher(traverse(clang::TK_IgnoreUnlessSpelledInSource,
                             memberExpr(member(varDecl(hasGlobalStorage()))).bind("member")),
                    uses.get());
  finder.addMatcher(declRefExpr(isInTemplateInstantiation(), to(varDecl(hasGlobalStorage())))
                        .bind("instantiated"),
                    uses.get());
  finder.addMatcher(
      traverse(clang::TK_IgnoreUnlessSpelledInSource, varDecl(hasGlobalStorage()).bind("var")),
      decls.get());
  keep.push_back(std::move(uses));
  keep.push_back(std::move(decls));
}

}  // namespace mpi2pure
