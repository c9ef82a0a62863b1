package reference

import "strings"

// The wordings of the benign variants that change messages: the spec fixes
// no message text, nor its language.

// rewording returns how the enabled variant rewords messages, nil when
// messages keep the previous release's words.
func (s *Server) rewording() func(msg string, k kind) string {
	switch {
	case s.mutated(BenignFrenchMessages):
		return frenchMessage
	case s.mutated(BenignOtherMessages):
		return otherMessage
	}
	return nil
}

// otherMessages reword the fixed messages for BenignOtherMessages. A
// missing API token still names the API ("API key required.").
var otherMessages = map[string]string{
	msgMissingInputs: "The request body could not be read.",
	msgMissingToken:  "API key required.",
	msgInvalidToken:  "This API key is not valid.",
	msgAccessDenied:  "Forbidden: check the endpoint and your credentials.",
	"Not found.":     "Nothing here.",
}

// otherMessage is msg worded differently: a fixed message has its own
// rewording, any other (handler messages, often with a key in them) a
// generic one of its kind.
func otherMessage(msg string, k kind) string {
	if m, ok := otherMessages[msg]; ok {
		return m
	}
	if k == kindSuccess {
		return "OK."
	}
	return "The request could not be completed."
}

// frenchMessages are the messages in French, for BenignFrenchMessages.
var frenchMessages = map[string]string{
	msgMissingInputs:      "Entrées de la méthode manquantes.",
	msgMissingToken:       "Clé manquante.",
	msgInvalidToken:       "Clé invalide.",
	msgAccessDenied:       "Accès refusé ou point d'accès invalide.",
	"Not found.":          "Introuvable.",
	"Page not found.":     "Page introuvable.",
	"Invalid page key.":   "Clé de page invalide.",
	"Method not allowed.": "Méthode non autorisée.",
	"List of pages":       "Liste des pages",
	"Page created.":       "Page créée.",
	"Page edited.":        "Page modifiée.",
	"Page deleted.":       "Page supprimée.",
	"List of tags.":       "Liste des étiquettes.",
	"List of categories.": "Liste des catégories.",
	"Information about the tag and pages related.":      "L'étiquette et ses pages.",
	"Information about the category and pages related.": "La catégorie et ses pages.",
	"Users profiles.":                          "Profils des utilisateurs.",
	"User profile.":                            "Profil de l'utilisateur.",
	"Settings.":                                "Réglages.",
	"Settings edited.":                         "Réglages modifiés.",
	"File uploaded.":                           "Fichier téléversé.",
	"Image uploaded.":                          "Image téléversée.",
	"File not sent.":                           "Aucun fichier envoyé.",
	"No image sent.":                           "Aucune image envoyée.",
	"File type not allowed.":                   "Type de fichier non autorisé.",
	"Image extension not allowed.":             "Extension d'image non autorisée.",
	"Invalid UUID.":                            "UUID invalide.",
	"Error trying to edit the page.":           "Erreur lors de la modification de la page.",
	"Error trying to delete the page.":         "Erreur lors de la suppression de la page.",
	"Error moving the file to the final path.": "Erreur lors du déplacement du fichier.",
}

// frenchPrefixes translate the messages that end with a key or a name.
var frenchPrefixes = [][2]string{
	{"Page filtered by key: ", "Page filtrée par clé : "},
	{"Files for the page key: ", "Fichiers de la page : "},
	{"Tag not found by the key: ", "Étiquette introuvable : "},
	{"Category not found by the key: ", "Catégorie introuvable : "},
	{"User not found by username: ", "Utilisateur introuvable : "},
}

// frenchMessage is msg in French; a message without a translation (a
// validation message) gets a generic one of its kind.
func frenchMessage(msg string, k kind) string {
	if m, ok := frenchMessages[msg]; ok {
		return m
	}
	for _, p := range frenchPrefixes {
		if rest, ok := strings.CutPrefix(msg, p[0]); ok {
			return p[1] + rest
		}
	}
	if k == kindSuccess {
		return "Terminé."
	}
	return "La requête n'a pas pu aboutir."
}
