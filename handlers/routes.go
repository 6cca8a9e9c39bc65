package handlers

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"cacao/static"
)

// routes lists every route of the site.
func (s *Server) routes(e *echo.Echo) {
	// Liveness: the process answers. Readiness: it can reach its database
	// (a load balancer sends no one to an instance that cannot).
	e.GET("/healthz", func(c echo.Context) error { return c.String(http.StatusOK, "ok") })
	e.GET("/readyz", s.ready)
	files := static.Handler()
	e.GET(static.Prefix+"*", echo.WrapHandler(files))
	// Browsers and tools that ask for /favicon.ico without reading the
	// page's icon link get the site's icon.
	e.GET("/favicon.ico", func(c echo.Context) error {
		return c.Redirect(http.StatusMovedPermanently, static.Path("favicon.svg"))
	})

	// The service worker of push notices is served from the root, so that
	// its scope is the whole site.
	e.GET("/sw.js", func(c echo.Context) error {
		r := c.Request().Clone(c.Request().Context())
		r.URL.Path = static.Prefix + "sw.js"
		files.ServeHTTP(c.Response(), r)
		return nil
	})

	e.GET("/", s.home)
	e.GET("/rules", s.rules)
	e.GET("/learn", s.learnIntro)
	e.GET("/learn/:n", s.learn)
	e.POST("/learn/:n", s.learnMove)
	e.GET("/ratings", s.ratings)
	e.GET("/games", s.watchList)
	e.GET("/replay", s.recordForm)
	e.POST("/replay", s.viewRecord)
	e.GET("/users/:name", s.profile)
	e.POST("/users/:name/follow", s.follow, s.requireUser)
	e.POST("/users/:name/unfollow", s.unfollow, s.requireUser)
	e.POST("/users/:name/invite", s.inviteToTable, s.requireUser)
	e.GET("/following", s.following, s.requireUser)
	e.GET("/tournaments", s.tournaments)
	e.GET("/tournaments/new", s.newTournament, s.requireUser, s.requireAccount)
	e.POST("/tournaments", s.createTournament, s.requireUser, s.requireAccount)
	e.GET("/tournaments/:id", s.tournament)
	e.POST("/tournaments/:id/join", s.joinTournament, s.requireUser)
	e.POST("/tournaments/:id/leave", s.leaveTournament, s.requireUser)
	e.POST("/language", s.setLanguage)
	e.POST("/board-size", s.setBoardSize)
	e.GET("/play", s.playForm)
	e.POST("/play", s.play)
	e.GET("/account", s.accountForm, s.requireUser)
	e.POST("/account", s.becomeAccount, s.requireUser)
	e.GET("/signup", s.signupForm)
	e.POST("/signup", s.signup)
	e.GET("/login", s.loginForm)
	e.POST("/login", s.login)
	e.GET("/logout", s.logoutForm, s.requireUser)
	e.POST("/logout", s.logout)
	e.GET("/notifications", s.notifications, s.requireUser)
	e.POST("/notifications/read", s.markRead, s.requireUser)
	e.GET("/next", s.next, s.requireUser)
	e.GET("/events", s.homeEvents, s.requireUser)
	e.GET("/settings", s.settings, s.requireUser, s.requireAccount)
	e.POST("/settings/news", s.saveNews, s.requireUser, s.requireAccount)
	e.POST("/settings/devices", s.addDevice, s.requireUser, s.requireAccount)
	e.POST("/settings/devices/remove", s.removeDevice, s.requireUser, s.requireAccount)
	e.POST("/settings/hook", s.saveHook, s.requireUser, s.requireAccount)
	e.POST("/settings/hook/secret", s.newHookSecret, s.requireUser, s.requireAccount)
	e.POST("/settings/news/test", s.testNews, s.requireUser, s.requireAccount)
	e.POST("/settings/auto", s.saveAutoDecide, s.requireUser)
	e.POST("/settings/zone", s.saveTimeZone, s.requireUser)
	e.POST("/settings/vacation", s.startVacation, s.requireUser)
	e.POST("/settings/vacation/end", s.endVacation, s.requireUser)
	e.GET("/settings/data", s.exportMyData, s.requireUser)
	e.POST("/settings/delete", s.deleteAccount, s.requireUser, s.requireAccount)
	e.POST("/settings/password", s.changePassword, s.requireUser, s.requireAccount)
	e.POST("/settings/sign-out-everywhere", s.signOutEverywhere, s.requireUser)
	e.POST("/settings/sessions/end", s.endSession, s.requireUser)
	e.POST("/settings/tokens", s.makeToken, s.requireUser, s.requireAccount)
	e.POST("/settings/tokens/revoke", s.revokeToken, s.requireUser, s.requireAccount)
	e.POST("/settings/bot", s.markBot, s.requireUser, s.requireAccount)
	e.POST("/settings/bot/open", s.setBotOpen, s.requireUser, s.requireAccount)
	e.POST("/settings/privacy", s.savePrivacy, s.requireUser)
	e.POST("/settings/unblock", s.unblock, s.requireUser)

	// Signed one-click links from mail: they work without a session.
	e.GET("/reset", s.resetForm)
	e.POST("/reset", s.requestReset)
	e.GET("/reset/new", s.resetPasswordForm)
	e.POST("/reset/new", s.resetPassword)
	e.GET("/m/go", s.mailGo)
	e.POST("/m/go", s.mailGo)
	e.GET("/m/verify", s.mailVerify)
	e.GET("/m/unsubscribe", s.mailUnsubscribe)
	e.POST("/m/unsubscribe", s.mailUnsubscribe)

	e.POST("/games", s.createGame, s.requireUser)
	e.POST("/games/:id/join", s.joinGame, s.requireUser)
	e.POST("/games/:id/decline", s.declineGame, s.requireUser)
	e.POST("/games/:id/block", s.blockSender, s.requireUser)
	e.POST("/invitations/decline-all", s.declineAll, s.requireUser)
	e.POST("/games/:id/cancel", s.cancelTable, s.requireUser)
	e.POST("/games/:id/withdraw", s.withdrawInvitation, s.requireUser)
	e.GET("/join/:token", s.joinForm)
	e.POST("/join/:token", s.joinByToken, s.requireUser)
	e.POST("/join/:token/guest", s.joinAsGuest)
	e.GET("/games/:id", s.showGame) // checks models.Watchable on the game it loads
	e.GET("/games/:id/events", s.gameEvents, s.watchable)
	e.GET("/games/:id/log", s.showLog, s.watchable)
	e.GET("/games/:id/turns/:n", s.showTurn, s.watchable)
	e.POST("/games/:id/turn", s.playTurn, s.requireUser)
	e.POST("/games/:id/preview", s.previewTurn, s.requireUser)
	e.POST("/games/:id/hint", s.hint, s.requireUser)
	e.POST("/games/:id/resolve", s.resolve, s.requireUser)
	e.GET("/games/:id/resign", s.resignForm, s.requireUser)
	e.POST("/games/:id/resign", s.resign, s.requireUser)
	e.POST("/games/:id/abort", s.abort, s.requireUser)
	e.POST("/games/:id/rematch", s.rematch, s.requireUser)
	e.GET("/games/:id/review", s.showReview, s.requireUser)
	e.POST("/games/:id/review", s.askReview, s.requireUser)
	e.GET("/games/:id/chat", s.showChat, s.watchable)
	e.POST("/games/:id/chat", s.say, s.requireUser, s.watchable)
	e.POST("/games/:id/notes", s.saveNote, s.requireUser)
	e.POST("/games/:id/chat/mute", s.muteChat, s.requireUser, s.watchable)
	e.POST("/games/:id/chat/report", s.reportChat, s.requireUser, s.watchable)
	e.GET("/chat", s.nextChat, s.requireUser)
	e.POST("/games/:id/back", s.takeBack, s.requireUser)
	e.POST("/games/:id/handover", s.handOver, s.requireUser)
	e.GET("/games/:id/record.json", s.exportRecord, s.watchable)
	s.adminRoutes(e)
	s.apiRoutes(e)
}
