// The HLO text grammar topolint accepts, written once, in EBNF, each
// production with the function that parses it (exact parser first; the
// fast path that may answer for it in brackets; see fast_paths.h). This
// header declares nothing: it is the reference the parser's comments and
// docs/rules/hlo-syntax.md point to. Internal to checker/hlo/text.
//
// Notation: '...' a literal, [ x ] optional, { x } zero or more, x | y a
// choice, ( ) grouping. Between any two tokens, `trivia` may appear unless
// a production says "no trivia"; inside brackets line breaks are trivia too.
// Byte classes (ident, digit, blank, ...) are those of byte_classes.h.
//
// ---- Lexical ---------------------------------------------------------------
//   trivia      = { space | line-comment | block-comment } ;
//                 HloLexer::SkipTrivia [inline newline fast path]
//   line-comment  = '//' { any byte but '\n' } ;  (may hold a
//                 `// topolint: ...` directive)       HloLexer::LineComment
//   block-comment = '/*' { any byte } '*/' ;         HloLexer::BlockComment
//   ident       = ident-start { ident } ;             HloLexer::ReadIdent
//   name        = [ '%' ] ident ;                     HloLexer::ReadName
//   integer     = [ '-' ] digit { digit } ;  (int64)  HloLexer::ReadInt
//   string      = '"' { char | escape } '"'
//               | "'" { char | escape } "'" ;         HloLexer::ReadString
//
// ---- Module ----------------------------------------------------------------
//   module      = [ header ] { top-item } ;           ModuleParser::Run
//   header      = 'HloModule' name [ ':' ] { ',' ident '=' header-value } ;
//                 ModuleParser::ParseHeader  (replica_count and
//                 num_partitions are integers; other values: value)
//   top-item    = computation | stack-frames ; ModuleParser::ParseTopItem
//   stack-frames = ( 'FileNames' | 'FunctionNames' | 'FileLocations'
//                  | 'StackFrames' ) { integer ( string | group ) } ;
//                 ModuleParser::SkipStackFrameSection
//   computation = [ 'ENTRY' ] name [ signature ] '{' { instruction } '}'
//                 [ ',' ident '=' value ] ; ModuleParser::ParseComputation,
//                                                     ModuleParser::CloseComputation
//   signature   = '(' [ param { ',' param } ] ')' '->' sig-shape ;
//                 ModuleParser::ParseSignature
//   param       = name ':' sig-shape ;
//   sig-shape   = shape ;  (skipped, not built)
//   ModuleParser::SkipSignatureShape
//
// ---- Instructions ----------------------------------------------------------
//   instruction = [ 'ROOT' ] name '=' [ shape ] opcode body ;
//                 ModuleParser::ParseInstruction, ParseHead
//                 [ScanSimpleHead: `[ROOT ]%name = shape opcode(` on one line]
//   opcode      = ident ;
//   body        = operands { ',' attribute } ;
//                 collective: ParseCollectiveBody;
//                 any other:  SkipInstructionBody [TrySkipLine, FastScan]
//   operands    = '(' [ operand { ',' operand } ] ')' ;  ParseOperands
//                 (skipped: SkipAnyGroup [TrySkipPlainGroup])
//   operand     = [ shape ] name [ operands { ',' attribute } ]  (a nested
//                 instruction)
//               | [ shape ] opcode operands { ',' attribute } ;  ParseOperand
//   attribute   = ident '=' value ;                   ParseAttribute
//                 (values the rules need are parsed: channel_id = integer,
//                 use_global_device_ids = 'true' | 'false', replica_groups,
//                 source_target_pairs, dimensions = int-list, slice_sizes,
//                 to_apply = name | '{' ... '}', metadata,
//                 frontend_attributes; any other is skipped as `value`)
//   value       = { group | string | any byte but ',' '\n' or an unmatched
//                 closer } ;  (a blank ends it unless a number, '(' or a
//                 literal word follows: ContinuesValueAfterBlank)
//                 HloLexer::SkipValue [FastScan kValue]
//   group       = '(' ... ')' | '[' ... ']' | '{' ... '}' ;  (balanced,
//                 string and comment aware)
//                 HloLexer::SkipGroup [FastScan kGroup, TrySkipPlainGroup]
//
// ---- Shapes ----------------------------------------------------------------
//   shape       = array-shape | tuple-shape | buffer-shape ;
//                 ShapeReader::Shape (ParseShape)
//                 [ReadSimpleShape via TryReadShape; captured text:
//                  ParseShapeText]
//   array-shape = ident '[' [ dim { ',' dim } ] ']' [ layout ] ;
//                 ShapeReader::ArrayRest (ParseArrayShapeRest);
//                 skipped: SkipArrayShapeRest
//   dim         = integer | '?' | '<=' integer ;
//   layout      = '{' group-contents '}' ;  (taken as a layout when a digit,
//                 '}' or ':' follows the '{': LayoutFollows; skipped whole)
//   tuple-shape = '(' [ shape { ',' shape } ] ')' ;   ShapeReader::Tuple
//   buffer-shape = 'b' '(' array-shape ')' ;          ShapeReader::Buffer
//
// ---- Collective attribute values -------------------------------------------
//   replica_groups = explicit-groups | iota-groups | mesh-groups ;
//                 ParseReplicaGroups
//   explicit-groups = '{' [ id-group { ',' id-group } ] '}' ;
//                 ParseExplicitGroups (group_list_parser.cc)
//   id-group    = int-list ;  (the ids go to one flat buffer)
//                 ParseExplicitGroupExact
//   int-list    = '{' [ integer { ',' integer } ] '}' ;
//                 ParseIntList
//   iota-groups = '[' integer ',' integer ']' '<=' '[' integer { ','
//                 integer } ']' [ 'T' '(' integer { ',' integer } ')' ] ;
//                 ParseIotaGroupsExact [TryParseSimpleIota]
//   mesh-groups = 'mesh' '[' axis { ',' axis } ']' [ ',' 'device_ids' '='
//                 ( '(' integer { ',' integer } ')' | '[' integer { ','
//                 integer } ']' [ 'T' '(' integer { ',' integer } ')' ] ) ]
//                 '{' [ axis-ref { ',' axis-ref } ] '}' ;
//                 ParseMeshGroups (mesh_parser.cc)
//   axis        = ( ident | string ) '=' integer ;    ReadAxisName
//   axis-ref    = ( ident | string ) [ ':' '(' integer ')' integer ] ;
//   source_target_pairs = '{' [ pair { ',' pair } ] '}' ;
//   pair        = '{' integer ',' integer '}' ;
//                 ParseSourceTargetPairsExact [TryParseSimplePairs]
//   metadata    = '{' { ident '=' ( string | integer | value ) [ ',' ] }
//                 '}' ;  ParseMetadataExact [TryParseSimpleMetadata]
//   frontend_attributes = '{' [ ident '=' ( string | value ) { ','
//                 ident '=' ( string | value ) } ] '}' ;
//                 ParseFrontendAttributes
#ifndef TOPOLINT_CHECKER_HLO_TEXT_HLO_GRAMMAR_H_
#define TOPOLINT_CHECKER_HLO_TEXT_HLO_GRAMMAR_H_
#endif  // TOPOLINT_CHECKER_HLO_TEXT_HLO_GRAMMAR_H_
