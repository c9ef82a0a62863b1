package reference

// The name of every mutant and benign variant older than declare, grouped by
// what they change. A new one is declared beside its behaviour instead (see
// declare): its name and its row in one line of the file that switches it.

const (
	// Protocol mutants: headers, envelope, body encodings.
	TextHTMLOnErrors           Mutant = "text-html-on-errors"
	EmptyBodyOn404             Mutant = "empty-body-on-404"
	NoCORSOnErrors             Mutant = "no-cors-on-errors"
	NoCacheOnlyOnSuccess       Mutant = "nocache-only-on-success"
	NoCacheOnlyWithAuth        Mutant = "nocache-only-with-auth"
	StatusZeroOnErrors         Mutant = "status-zero-on-errors"
	MessageNullOnSuccess       Mutant = "message-null-on-success"
	StatusAsNumber             Mutant = "status-as-number"
	HandlerErrorsWithoutStatus Mutant = "handler-errors-without-status"
	StatusFieldOnEarlyErrors   Mutant = "status-field-on-early-errors"
	StatusOnOtherEarlyErrors   Mutant = "status-on-other-early-errors"
	APIUnderV1                 Mutant = "api-under-v1"
	JSONBodyRejected           Mutant = "json-body-rejected"
	FormPutRejected            Mutant = "form-put-rejected"
	DoubleEncodeForm           Mutant = "double-encode-form"
	HandlerErrors200           Mutant = "handler-errors-200"

	// Authentication mutants: tokens, where they travel, unknown endpoints.
	MissingToken401             Mutant = "missing-token-401"
	InvalidTokenAccepted        Mutant = "invalid-token-accepted"
	Status403InsteadOf401       Mutant = "403-instead-of-401"
	UserReadsNeedAuth           Mutant = "user-reads-need-auth"
	CreateWithoutAuth           Mutant = "create-without-auth"
	DeleteWithoutAuth           Mutant = "delete-without-auth"
	AnyAuthAccepted             Mutant = "any-auth-accepted"
	SettingsReadableWithoutAuth Mutant = "settings-readable-without-auth"
	RefusedWriteApplies         Mutant = "refused-write-applies"
	DeleteIgnoresQueryTokens    Mutant = "delete-ignores-query-tokens"
	BodyTokensJSONOnly          Mutant = "body-tokens-json-only"
	DeleteJSONBodyIgnored       Mutant = "delete-json-body-ignored"
	AuthParamRenamedOnWrites    Mutant = "auth-param-renamed-on-writes"
	FileUploadWithoutAuth       Mutant = "file-upload-without-auth"
	UnknownEndpoint404          Mutant = "unknown-endpoint-404"

	// Page object mutants.
	TagsAsString            Mutant = "tags-as-string"
	TagsMapValuesAreKeys    Mutant = "tags-map-values-are-keys"
	DateDisplayFormat       Mutant = "date-display-format"
	CategoryFalseWhenNone   Mutant = "category-false-when-none"
	CoverImageNull          Mutant = "cover-image-null"
	CoverImageRelative      Mutant = "cover-image-relative"
	ChildrenShareParentUUID Mutant = "children-share-parent-uuid"
	SlugIsFullKey           Mutant = "slug-is-full-key"
	RelativePermalink       Mutant = "relative-permalink"
	TitleNotEncoded         Mutant = "title-not-encoded"
	ContentNotRendered      Mutant = "content-not-rendered"

	// Page list mutants.
	ListNoMeta               Mutant = "list-no-meta"
	NumberOfItemsAsString    Mutant = "numberofitems-as-string"
	DefaultIncludesStatic    Mutant = "default-includes-static"
	StickyFilterIgnored      Mutant = "sticky-filter-ignored"
	DefaultSizeMisreported   Mutant = "default-size-misreported"
	AllCapped                Mutant = "all-capped"
	ZeroSizeEmpty            Mutant = "zero-size-empty"
	PageNumberZeroEmpty      Mutant = "pagenumber-zero-empty"
	PastEnd404               Mutant = "past-end-404"
	HasMoreWrongOnLastPage   Mutant = "hasmore-wrong-on-last-page"
	MetaPageNumberZeroBased  Mutant = "meta-pagenumber-zero-based"
	PageSizeOffByOne         Mutant = "page-size-off-by-one"
	PagesOverlap             Mutant = "pages-overlap"
	UntaggedBeforePagination Mutant = "untagged-before-pagination"
	MetaTotalCountsUntagged  Mutant = "meta-total-counts-untagged"
	BadPaging500             Mutant = "bad-paging-500"

	// Single page, create, edit and delete mutants.
	GetPageInArray               Mutant = "get-page-in-array"
	HierarchicalReadsParent      Mutant = "hierarchical-reads-parent"
	MissingPage200               Mutant = "missing-page-200"
	CreateReturns200             Mutant = "create-returns-200"
	CreateReturnsKeyOnly         Mutant = "create-returns-key-only"
	CreateIgnoresDescription     Mutant = "create-ignores-description"
	SlugNotFromTitle             Mutant = "slug-not-from-title"
	ParentIgnored                Mutant = "parent-ignored"
	EditIgnoresType              Mutant = "edit-ignores-type"
	InvalidTypeAccepted          Mutant = "invalid-type-accepted"
	EditReturnsKeyOnly           Mutant = "edit-returns-key-only"
	EditResetsOmittedFields      Mutant = "edit-resets-omitted-fields"
	EditBlanksOmittedContent     Mutant = "edit-blanks-omitted-content"
	EditBlanksOmittedDescription Mutant = "edit-blanks-omitted-description"
	EditBlanksOmittedTags        Mutant = "edit-blanks-omitted-tags"
	EditBlanksOmittedCategory    Mutant = "edit-blanks-omitted-category"
	EditBlanksOmittedDate        Mutant = "edit-blanks-omitted-date"
	EditBlanksOmittedType        Mutant = "edit-blanks-omitted-type"
	EditBlanksOmittedCoverImage  Mutant = "edit-blanks-omitted-cover-image"
	EditReportsOldKey            Mutant = "edit-reports-old-key"
	RenameNewUUID                Mutant = "rename-new-uuid"
	EditMissing200               Mutant = "edit-missing-200"
	EditInvalidTypeAccepted      Mutant = "edit-invalid-type-accepted"
	DeleteReturnsData            Mutant = "delete-returns-data"
	DeleteSoft                   Mutant = "delete-soft"
	DeleteMissing200             Mutant = "delete-missing-200"
	ChildWritesHitParent         Mutant = "child-writes-hit-parent"

	// Tag and category mutants.
	TagListWithoutDescription   Mutant = "tag-list-without-description"
	TagSingleWithoutList        Mutant = "tag-single-without-list"
	TagPagesMismatch            Mutant = "tag-pages-mismatch"
	TagListStale                Mutant = "tag-list-stale"
	TagListMissesPage           Mutant = "tag-list-misses-page"
	TagMissing200               Mutant = "tag-missing-200"
	CategoryListWithoutTemplate Mutant = "category-list-without-template"
	CategorySingleWithoutList   Mutant = "category-single-without-list"
	CategoryPagesMismatch       Mutant = "category-pages-mismatch"
	CategoryListStale           Mutant = "category-list-stale"
	CategoryListMissesPage      Mutant = "category-list-misses-page"
	CategoryMissing200          Mutant = "category-missing-200"

	// User mutants.
	UserEmptyFalse           Mutant = "user-empty-false"
	UsersListAsArray         Mutant = "users-list-as-array"
	UsersKeyedByPosition     Mutant = "users-keyed-by-position"
	UserListFullProfile      Mutant = "user-list-full-profile"
	UserSinglePartial        Mutant = "user-single-partial"
	UserLeaksEmail           Mutant = "user-leaks-email"
	UserListValueNotString   Mutant = "user-list-value-not-string"
	UserSingleValueNotString Mutant = "user-single-value-not-string"
	UserMissing200           Mutant = "user-missing-200"

	// Settings mutants.
	SettingsCustomFieldsEscaped Mutant = "settings-customfields-escaped"
	SettingsCustomFieldsObject  Mutant = "settings-customfields-object"
	SettingsEditReturnsData     Mutant = "settings-edit-returns-data"
	SettingsPutResetsHomepage   Mutant = "settings-put-resets-homepage"
	SettingsPutIgnored          Mutant = "settings-put-ignored"
	SettingsPutBlanksUnnamed    Mutant = "settings-put-blanks-unnamed"
	SettingsNestedObject        Mutant = "settings-nested-object"
	SettingsDataEmpty           Mutant = "settings-data-empty"
	DoubleEncodeFormSettings    Mutant = "double-encode-form-settings"
	CustomFieldsInvalidAccepted Mutant = "customfields-invalid-accepted"
	SettingsInvalid200          Mutant = "settings-invalid-200"
	SettingsLocaleIgnored       Mutant = "settings-locale-ignored"
	SettingsLocaleEveryUpdate   Mutant = "settings-locale-every-update"

	// File mutants.
	FileSizeAsString   Mutant = "file-size-as-string"
	FileThumbnailFalse Mutant = "file-thumbnail-false"
	FilesUnsorted      Mutant = "files-unsorted"
	TraversalAllowed   Mutant = "traversal-allowed"
	UploadNotListed    Mutant = "upload-not-listed"
	UploadRefused200   Mutant = "upload-refused-200"

	// Mutants the spec coverage map's checks catch: views that do not
	// follow writes, shapes broken outside the shape rules' own reads, the
	// same fact told two ways (cellmutants.go holds one per cell besides).
	TermsIgnoreWrites      Mutant = "terms-ignore-writes"
	UploadRecordSizeString Mutant = "upload-record-size-string"
	TagViewsNameIsKey      Mutant = "tag-views-name-is-key"

	// Benign variants.
	BenignExtraFields         Mutant = "benign-extra-fields"
	BenignKeyOrder            Mutant = "benign-key-order"
	BenignCharset             Mutant = "benign-charset"
	BenignEscapedSlashes      Mutant = "benign-escaped-slashes"
	BenignExtraHeaders        Mutant = "benign-extra-headers"
	BenignAnyUploadExtension  Mutant = "benign-any-upload-extension"
	BenignTitleEditKeepsKey   Mutant = "benign-title-edit-keeps-key"
	BenignAllReportsTotal     Mutant = "benign-all-reports-total"
	BenignDefaultPageSize10   Mutant = "benign-default-page-size-10"
	BenignBadPaging400        Mutant = "benign-bad-paging-400"
	BenignNoAutoSchedule      Mutant = "benign-no-auto-schedule"
	BenignTermListsAllTypes   Mutant = "benign-term-lists-all-types"
	BenignFilesMissingPage404 Mutant = "benign-files-missing-page-404"
	BenignTraversalEarlyBody  Mutant = "benign-traversal-early-body"
	BenignSlugKeepsCase       Mutant = "benign-slug-keeps-case"
	BenignNumericEntities     Mutant = "benign-numeric-entities"
	BenignInvalidTypeIgnored  Mutant = "benign-invalid-type-ignored"
	Benign404BeforeAuth       Mutant = "benign-404-before-auth"
	BenignSlugOnEdit400       Mutant = "benign-slug-on-edit-400"
	BenignSizeInKiB           Mutant = "benign-size-in-kib"
	BenignOtherMessages       Mutant = "benign-other-messages"
	BenignCORSEchoOrigin      Mutant = "benign-cors-echo-origin"
	BenignNewerRelease        Mutant = "benign-newer-release"
	BenignSettingsAsSent      Mutant = "benign-settings-as-sent"
	BenignTagsOfAnyPage       Mutant = "benign-tags-of-any-page"

	// Benign variants of the divergent profile: each a choice the spec
	// allows, all of them switched on together by Divergent.
	BenignContentRequired    Mutant = "benign-content-required"
	BenignReversedListOrder  Mutant = "benign-reversed-list-order"
	BenignFrenchMessages     Mutant = "benign-french-messages"
	Benign405UnlistedMethod  Mutant = "benign-405-unlisted-method"
	BenignDisplayDateShifted Mutant = "benign-display-date-shifted"
	BenignVolatilePageField  Mutant = "benign-volatile-page-field"
	BenignBadPaging422       Mutant = "benign-bad-paging-422"
	BenignTypedSettings      Mutant = "benign-typed-settings"
	BenignVolatileSettings   Mutant = "benign-volatile-settings"
)

// Hazards: neither rule breaks nor benign variants (MutantInfo.Hazard).
const (
	// ForeignWriter: another writer deletes a seeded page mid-run (see
	// ForeignWriterPage).
	ForeignWriter Mutant = "foreign-writer"
)
