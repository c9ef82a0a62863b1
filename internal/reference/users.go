package reference

import (
	"net/http"
	"sort"
	"strconv"

	"github.com/conformance-suite/conformance/fixtures"
)

// profile renders a user's public profile (spec 2.4): the 15 list fields,
// plus codepen, xing, telegram and vk when full. Every value is a string;
// email, role, password and tokens are never included.
func (s *view) profile(u fixtures.User, full bool) obj {
	o := obj{
		{"username", u.Username},
		{"firstName", u.FirstName},
		{"lastName", u.LastName},
		{"nickname", u.Nickname},
		{"description", u.Description},
		{"twitter", u.Twitter},
		{"facebook", u.Facebook},
		{"instagram", u.Instagram},
		{"github", u.Github},
		{"gitlab", u.Gitlab},
		{"linkedin", u.Linkedin},
		{"mastodon", u.Mastodon},
		{"bluesky", u.Bluesky},
		{"youtube", u.Youtube},
		{"profilePicture", u.ProfilePicture},
	}
	if full || s.mutated(UserListFullProfile) {
		o = append(o,
			kv{"codepen", u.Codepen},
			kv{"xing", u.Xing},
			kv{"telegram", u.Telegram},
			kv{"vk", u.VK},
		)
	}
	if s.mutated(UserEmptyFalse) {
		for i := range o {
			if o[i].v == "" {
				o[i].v = false
			}
		}
	}
	if (full && s.mutated(UserSingleValueNotString)) || (!full && s.mutated(UserListValueNotString)) {
		n := 0
		for _, p := range s.pages {
			if p.username == u.Username {
				n++
			}
		}
		o = append(o, kv{"pageCount", n})
	}
	if s.mutated(UserLeaksEmail) {
		o = append(o, kv{"email", u.Email})
	}
	return o
}

// listUsersH answers GET /api/users (spec 4.8): data is an object keyed by
// username.
func (s *view) listUsersH(_ *http.Request, _ route, _ *input, _ string) response {
	users := append([]fixtures.User(nil), s.users...)
	sort.Slice(users, func(i, j int) bool { return users[i].Username < users[j].Username })
	if s.mutated(UsersListAsArray) {
		data := make([]any, 0, len(users))
		for _, u := range users {
			data = append(data, s.profile(u, false))
		}
		return success(http.StatusOK, "Users profiles.", kv{"data", data})
	}
	data := dict{}
	for i, u := range users {
		key := u.Username
		if s.mutated(UsersKeyedByPosition) {
			key = strconv.Itoa(i + 1)
		}
		data = append(data, kv{key, s.profile(u, false)})
	}
	return success(http.StatusOK, "Users profiles.", kv{"data", data})
}

// getUserH answers GET /api/users/{username}.
func (s *view) getUserH(_ *http.Request, rt route, _ *input, _ string) response {
	for _, u := range s.users {
		if u.Username == rt.key {
			return success(http.StatusOK, "User profile.", kv{"data", s.profile(u, !s.mutated(UserSinglePartial))})
		}
	}
	code := http.StatusNotFound
	if s.mutated(UserMissing200) {
		code = http.StatusOK
	}
	return failure(code, "User not found by username: "+rt.key)
}
